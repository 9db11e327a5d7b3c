// Who the client is: the socket peer, or, when that peer is one of the configured proxies, what
// the proxy forwarded (X-Forwarded-For and X-Forwarded-Proto). Any other peer's forwarding
// headers are ignored, since a client can send them as easily as a proxy.

import type { IncomingHttpHeaders } from 'node:http'
import { BlockList, isIP } from 'node:net'

/** Tells whether an address is in a list of addresses and CIDR ranges, IPv4 or IPv6. */
export type AddressMatcher = (address: string) => boolean

/** An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d. */
const unmapped = (address: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address

/** Compiles a list such as `127.0.0.1,10.0.0.0/8,fd00::/8` (entries validated by the config). */
export const addressMatcher = (entries: readonly string[]): AddressMatcher => {
  if (entries.length === 0) return () => false
  const list = new BlockList()
  for (const entry of entries) {
    const [ip, bits] = entry.split('/')
    const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4'
    if (bits === undefined) list.addAddress(ip, type)
    else list.addSubnet(ip, Number(bits), type)
  }
  // Every request asks about its peer, and peers repeat (the proxies themselves, kept-alive
  // clients): the answers are kept, up to a bound, rather than parsed again each time.
  const known = new Map<string, boolean>()
  return (address) => {
    let answer = known.get(address)
    if (answer === undefined) {
      const plain = unmapped(address)
      const version = isIP(plain)
      answer = version !== 0 && list.check(plain, version === 6 ? 'ipv6' : 'ipv4')
      if (known.size >= KNOWN_ADDRESSES) known.clear()
      known.set(address, answer)
    }
    return answer
  }
}

/** Addresses whose answer `addressMatcher` keeps at once. */
const KNOWN_ADDRESSES = 4096

export interface Client {
  /** The address throttles count and logs name. */
  ip: string
  /** Whether the client's own connection is HTTPS (cookie `Secure`). */
  secure: boolean
  /** Whether a configured proxy passed the request on. */
  proxied: boolean
}

const first = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim().toLowerCase()

/**
 * The client of a request arriving from `peer` (over TLS when `encrypted`).
 *
 * X-Forwarded-For is read from the right: each proxy appends the address it received from, so
 * the entries right of the first untrusted one were written by trusted proxies and the entries
 * left of it by whoever the client was, who may have written anything. A value that is not an
 * address stops the walk at the last proxy, so junk cannot become a throttle key.
 */
export const resolveClient = (
  trusted: AddressMatcher,
  peer: string,
  encrypted: boolean,
  headers: IncomingHttpHeaders,
): Client => {
  const direct = { ip: unmapped(peer), secure: encrypted, proxied: false }
  if (!trusted(peer)) return direct
  const forwardedFor = headers['x-forwarded-for']
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
  let ip = direct.ip
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = unmapped(hops[i])
    if (isIP(hop) === 0) break
    ip = hop
    if (!trusted(hop)) break
  }
  const proto = first(headers['x-forwarded-proto'])
  return {
    ip,
    secure: proto === 'https' ? true : proto === 'http' ? false : encrypted,
    proxied: true,
  }
}
