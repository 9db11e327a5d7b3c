// The few static files the HTML shells use: their stylesheet and the site icon. Both are served
// by the server itself, since the pages' CSP allows no inline style.

/**
 * The extension's iframes are sized in rem for a 10 px root font (passbolt's pages set
 * `font-size: 62.5%`): without it the workspace iframe is laid out at 160% and cut off. The
 * iframe is absolutely positioned over the page, so the page must fill the viewport.
 */
export const SHELL_CSS = `html{font-size:62.5%;height:100%;background:#f7f7f7}
body{margin:0;height:100%;font-family:system-ui,sans-serif;font-size:1.4rem;color:#333}
#temporary-skeleton{display:flex;align-items:center;justify-content:center;height:100%;padding:0 2rem;text-align:center}
`

/** A key in a rounded square, in the product colours. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#2c7be5"/>
<circle cx="12" cy="16" r="5" fill="none" stroke="#fff" stroke-width="3"/>
<path d="M17 16h10M23 16v4M26 16v3" stroke="#fff" stroke-width="3" stroke-linecap="round"/>
</svg>
`
