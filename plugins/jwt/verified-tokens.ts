// Access tokens already verified, by the SHA-256 of the token: an RS256 verification costs more
// than the rest of a bearer request, and a token's claims cannot change before it expires.
// Bounded, so a flood of distinct tokens cannot grow memory without end.

const MAX_ENTRIES = 10_000

export class VerifiedTokens {
  private readonly entries = new Map<string, { userId: string; expiresAt: number }>()

  /** The user of a token verified earlier and not yet expired. */
  get(tokenHash: string, now = Date.now()): string | undefined {
    const entry = this.entries.get(tokenHash)
    if (!entry) return undefined
    if (entry.expiresAt <= now) {
      this.entries.delete(tokenHash)
      return undefined
    }
    return entry.userId
  }

  remember(tokenHash: string, userId: string, expiresAt: number): void {
    if (this.entries.size >= MAX_ENTRIES) {
      // Maps iterate in insertion order: the oldest entry goes first.
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(tokenHash, { userId, expiresAt })
  }
}
