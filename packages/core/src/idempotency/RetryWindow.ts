/** How long a key's first answer is kept and replayed (Stripe's 24 hours). */
export const KEY_RETENTION_MS = 24 * 60 * 60 * 1000

/**
 * How long a request may hold its key unanswered before a retry may take the key over (the
 * process that held it died): far longer than any create takes.
 */
export const CLAIM_LEASE_MS = 5 * 60 * 1000

/** The longest key accepted (Stripe's limit). */
export const MAX_KEY_LENGTH = 255

/** The instants a claim made at `now` is judged by. */
export const claimWindow = (now: Date) => ({
  now,
  expiredBefore: new Date(now.getTime() - KEY_RETENTION_MS),
  leaseUntil: new Date(now.getTime() + CLAIM_LEASE_MS)
})
