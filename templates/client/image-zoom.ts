// Click to zoom: an image in the content opens at full size in a modal dialog, closed by a click,
// Escape or the close button. Part of the bootstrap (a few hundred bytes), so it works before
// React loads. An image inside a link keeps the link.
const open = (image: HTMLImageElement) => {
  const dialog = document.createElement('dialog')
  dialog.className = 'image-zoom'
  dialog.setAttribute('aria-label', image.alt || 'Image')
  const copy = document.createElement('img')
  copy.src = image.currentSrc || image.src
  copy.alt = image.alt
  const close = document.createElement('button')
  close.type = 'button'
  close.className = 'image-zoom__close'
  close.textContent = 'Close'
  dialog.append(close, copy)
  dialog.addEventListener('click', () => dialog.close())
  dialog.addEventListener('close', () => {
    dialog.remove()
    image.focus({ preventScroll: true })
  })
  document.body.append(dialog)
  dialog.showModal()
  close.focus()
}

export const initImageZoom = (): void => {
  document.addEventListener('click', (event) => {
    const target = event.target as Element | null
    if (!(target instanceof HTMLImageElement) || !target.matches('.markdown img')) return
    if (target.closest('a, .image-zoom')) return
    event.preventDefault()
    open(target)
  })
}
