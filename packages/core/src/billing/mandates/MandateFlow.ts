import { Duration } from "effect"

/**
 * How long GoCardless's billing request flow can be completed: 7 days after it was created (its
 * `expires_at`; the redirect flows' 30 minutes do not apply). A setup stands on this until the
 * provider says when its flow expires.
 */
export const BILLING_REQUEST_FLOW_LIFETIME = Duration.days(7)

export const flowExpiry = (createdAt: Date): Date =>
  new Date(createdAt.getTime() + Duration.toMillis(BILLING_REQUEST_FLOW_LIFETIME))
