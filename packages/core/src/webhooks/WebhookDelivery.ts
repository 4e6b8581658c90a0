import { Schema } from "effect"
import { EventType } from "../events/Event.js"
import { DeliveryId, TenantId, WebhookId } from "../Ids.js"

/**
 * Pending: waiting for its first attempt, or for the one a retry asked for. Succeeded: an
 * attempt got a 2xx. Failed: its latest attempt failed (the automatic schedule may try again).
 */
export const DeliveryStatus = Schema.Literal("Pending", "Succeeded", "Failed")
export type DeliveryStatus = typeof DeliveryStatus.Type

/** One attempt to deliver, as recorded. */
export class DeliveryAttempt extends Schema.Class<DeliveryAttempt>("DeliveryAttempt")({
  at: Schema.DateFromSelf,
  /** The receiver's HTTP status; null when no answer came (refused, unreachable, timed out). */
  responseStatus: Schema.NullOr(Schema.Int),
  /** The receiver's answer, cut at 4 KiB. */
  responseBody: Schema.NullOr(Schema.String),
  durationMs: Schema.Int,
  /** Why the attempt failed when the status does not say it. */
  error: Schema.NullOr(Schema.String)
}) {}

/** One event on its way to one webhook. */
export class WebhookDelivery extends Schema.Class<WebhookDelivery>("WebhookDelivery")({
  id: DeliveryId,
  tenantId: TenantId,
  webhookId: WebhookId,
  eventId: Schema.String,
  eventType: EventType,
  status: DeliveryStatus,
  attempts: Schema.Int,
  createdAt: Schema.DateFromSelf,
  /** The latest attempt's; null before the first. */
  lastAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  /** When the next attempt is due: null once it succeeded or the automatic schedule is spent. */
  nextAttemptAt: Schema.NullOr(Schema.DateFromSelf),
  responseStatus: Schema.NullOr(Schema.Int),
  responseBody: Schema.NullOr(Schema.String)
}) {}

/** A delivery with every attempt, oldest first. */
export interface DeliveryDetail {
  readonly delivery: WebhookDelivery
  readonly attemptLog: ReadonlyArray<DeliveryAttempt>
}
