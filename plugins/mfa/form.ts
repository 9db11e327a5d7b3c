// The HTML verify form the extension relies on while MFA is pending (it sends the tab there
// and never posts the JSON verify routes itself): a plain form, no scripts; the CSRF token
// travels as a hidden field.
import { escapeHtml } from '../../api/html.ts'
import type { Provider } from './service.ts'

/** Only a path on this site may be a redirect target. */
export const safeRedirect = (value: unknown) =>
  typeof value === 'string' &&
  value.startsWith('/') &&
  !value.startsWith('//') &&
  !value.includes('\\')
    ? value
    : '/'

export const verifyForm = (
  provider: Provider,
  csrfToken: string,
  redirect: string,
  error?: string,
) => {
  const field = provider === 'totp' ? 'totp' : 'hotp'
  const label =
    provider === 'totp' ? 'One-time password from your authenticator app' : 'Touch your Yubikey'
  const input =
    provider === 'totp'
      ? `<input id="${field}" name="${field}" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="8" required autofocus>`
      : `<input id="${field}" name="${field}" autocomplete="off" maxlength="44" required autofocus>`
  return `<!DOCTYPE html>
<html class="passbolt" lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Multi-factor authentication | Keyward</title></head>
<body>
<main>
<h1>Multi-factor authentication</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}<form method="post" action="/mfa/verify/${provider}?redirect=${encodeURIComponent(redirect)}">
<input type="hidden" name="_csrfToken" value="${escapeHtml(csrfToken)}">
<label for="${field}">${label}</label>
${input}
<label><input type="checkbox" name="remember" value="1"> Remember this device for a month</label>
<button type="submit">Verify</button>
</form>
</main>
</body>
</html>`
}
