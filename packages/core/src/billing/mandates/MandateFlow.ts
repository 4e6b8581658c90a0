/** A redirect flow can be completed for 30 minutes after it was created, as with GoCardless. */
export const REDIRECT_FLOW_LIFETIME_MS = 30 * 60 * 1000

export const flowExpiry = (createdAt: Date): Date => new Date(createdAt.getTime() + REDIRECT_FLOW_LIFETIME_MS)
