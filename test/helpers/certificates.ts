// Real X.509 certificates for tests, made by OpenSSL in the test's own temporary folder.
import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface TestCertificate {
  cert: string
  key: string
  /** SHA-256 fingerprint, as node:tls reports a peer's (`fingerprint256`). */
  fingerprint: string
  pem: string
}

/** A self-signed P-256 certificate for 127.0.0.1 and localhost, written as `<name>.crt|.key`. */
export const makeCertificate = (dir: string, name: string, commonName = name): TestCertificate => {
  const cert = join(dir, `${name}.crt`)
  const key = join(dir, `${name}.key`)
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  )
  const pem = readFileSync(cert, 'utf8')
  return { cert, key, pem, fingerprint: new X509Certificate(pem).fingerprint256 }
}
