// SHA-256 in hex: how session cookies and access tokens are stored or bound without keeping them.
import { createHash } from 'node:crypto'

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex')
