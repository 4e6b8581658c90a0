import { Schema } from "effect"

/**
 * Kinds of event delivered to webhooks. Dotted lower case on the wire; later capabilities add
 * theirs here.
 */
export const EventType = Schema.Literal(
  "test.webhook",
  "contact.created",
  "contact.updated",
  "contact.deleted",
  "subcontractor.created",
  "sales-invoice.created",
  "sales-invoice.paid",
  "monthly-return.accepted",
  "monthly-return.rejected",
  "connection.connected",
  "cis-statement.received",
  "webhook.disabled"
)
export type EventType = typeof EventType.Type

/** An event as a use case records it: `data` is its JSON payload, as the webhook receiver will see it. */
export interface NewEvent {
  readonly type: EventType
  readonly data: unknown
}
