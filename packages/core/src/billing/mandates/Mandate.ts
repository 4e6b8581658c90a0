import { Schema } from "effect"
import { MandateId, UserId } from "../../Ids.js"
import { StoredMandateStatus } from "./MandateStatus.js"

/**
 * One mandate setup of a user: a billing request and its flow with the provider first, then, once
 * completed, the provider's mandate (`reference`, MD...) with the account holder as the provider
 * holds them.
 */
export class Mandate extends Schema.Class<Mandate>("Mandate")({
  id: MandateId,
  userId: UserId,
  status: StoredMandateStatus,
  /** The service's secret that the completion must give back. */
  sessionToken: Schema.String,
  /** The provider's setup (a billing request, BRQ...); null for the moment between reserving a setup and the provider's answer. */
  redirectFlowId: Schema.NullOr(Schema.String),
  redirectUrl: Schema.NullOr(Schema.String),
  reference: Schema.NullOr(Schema.String),
  accountHolderName: Schema.NullOr(Schema.String),
  bankName: Schema.NullOr(Schema.String),
  accountNumberEnding: Schema.NullOr(Schema.String),
  nextPossibleChargeDate: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf,
  /** When the setup's flow can no longer be completed (the provider's `expires_at`: 7 days at GoCardless). */
  expiresAt: Schema.DateFromSelf,
  completedAt: Schema.NullOr(Schema.DateFromSelf)
}) {
  /** A started flow that was never completed and whose time ran out. */
  isExpiredFlow(now: Date): boolean {
    return this.status === "InProgress" && this.reference === null && this.expiresAt.getTime() <= now.getTime()
  }

  /** Its status as the caller sees it at `now`. */
  statusAt(now: Date): StoredMandateStatus {
    return this.isExpiredFlow(now) ? "Expired" : this.status
  }
}
