// Reads a QR code as the mobile app's camera does, from the image the extension shows. The
// decoder is ZXing, the copy html5-qrcode ships (passbolt-styleguide's scanner dependency), so
// the test needs nothing the checkout does not already install.
import { createRequire } from 'node:module'
import sharp from 'sharp'

interface ZXingResult {
  getText(): string
}

interface ZXingModule {
  RGBLuminanceSource: new (luminances: Uint8ClampedArray, width: number, height: number) => unknown
  HybridBinarizer: new (source: unknown) => unknown
  BinaryBitmap: new (binarizer: unknown) => unknown
  QRCodeReader: new () => { decode(bitmap: unknown, hints: Map<unknown, unknown>): ZXingResult }
  DecodeHintType: { TRY_HARDER: unknown; PURE_BARCODE: unknown }
}

const fromStyleguide = createRequire(
  createRequire(import.meta.url).resolve('passbolt-styleguide/package.json'),
)
const ZXing = createRequire(fromStyleguide.resolve('html5-qrcode'))(
  '../third_party/zxing-js.umd.js',
) as ZXingModule

/** The text of the QR code in a `data:image/...;base64,` URL (the `src` of the extension's image). */
export const readQrCode = async (dataUrl: string) => {
  const match = /^data:image\/[a-z]+;base64,(.+)$/.exec(dataUrl)
  if (!match) throw new Error(`not an image data URL: ${dataUrl.slice(0, 40)}`)
  // Back to black and white: JPEG's ringing around dense modules misleads the binarizer.
  const { data, info } = await sharp(Buffer.from(match[1], 'base64'))
    .greyscale()
    .threshold(128)
    .raw()
    .toBuffer({ resolveWithObject: true })
  const luminances = new Uint8ClampedArray(info.width * info.height)
  for (let i = 0; i < luminances.length; i++) luminances[i] = data[i * info.channels]
  const bitmap = new ZXing.BinaryBitmap(
    new ZXing.HybridBinarizer(new ZXing.RGBLuminanceSource(luminances, info.width, info.height)),
  )
  // The image is the code alone, upright, in its quiet zone, as a phone's camera never sees it:
  // read it as such first (finding the code in random-looking data sometimes fails), then search.
  try {
    return new ZXing.QRCodeReader()
      .decode(bitmap, new Map([[ZXing.DecodeHintType.PURE_BARCODE, true]]))
      .getText()
  } catch {
    return new ZXing.QRCodeReader()
      .decode(bitmap, new Map([[ZXing.DecodeHintType.TRY_HARDER, true]]))
      .getText()
  }
}
