// A local Yubico-compatible OTP validation server (protocol 2.0): it checks the request
// signature, answers OK once per known OTP and REPLAYED_OTP after, and signs its answers.
import { createServer } from 'node:http'
import type { ExecutionContext } from 'ava'
import { signParams } from '../../plugins/mfa/yubikey.ts'

export const YUBICO_CLIENT_ID = '4711'
export const YUBICO_SECRET = Buffer.from('keyward-test-yubico-secret').toString('base64')

const MODHEX = 'cbdefghijklnrtuv'

/** A well-formed OTP: the 12-character key id, then 32 modhex characters. */
export const yubikeyOtp = (keyId: string, counter: number) =>
  keyId + Array.from({ length: 32 }, (_, i) => MODHEX[(counter * 7 + i * 3) % 16]).join('')

export const startYubicoServer = async (
  t: ExecutionContext,
  options: { signWith?: string } = {},
) => {
  const valid = new Set<string>()
  const used = new Set<string>()
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const params = Object.fromEntries(url.searchParams)
    const { h, ...signed } = params
    const otp = params.otp ?? ''
    let status = 'OK'
    if (!h || h !== signParams(signed, YUBICO_SECRET)) status = 'BAD_SIGNATURE'
    else if (used.has(otp)) status = 'REPLAYED_OTP'
    else if (!valid.has(otp)) status = 'BAD_OTP'
    if (status === 'OK') used.add(otp)
    const answer: Record<string, string> = {
      t: new Date().toISOString(),
      otp,
      nonce: params.nonce ?? '',
      sl: '100',
      status,
    }
    const lines = [
      `h=${signParams(answer, options.signWith ?? YUBICO_SECRET)}`,
      ...Object.entries(answer).map(([k, v]) => `${k}=${v}`),
    ]
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end(`${lines.join('\r\n')}\r\n`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}/wsapi/2.0/verify`,
    accept: (otp: string) => valid.add(otp),
  }
}
