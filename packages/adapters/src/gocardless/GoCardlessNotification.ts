import { type ProviderEventBatch, resourceIdOf } from "@cisbook/core/billing/providerevents/ProviderEvent"
import { Schema } from "effect"

// A GoCardless notification (what GoCardless calls a webhook), as GoCardless sends it to the
// service: its body and its signature header.

/** The most events GoCardless puts in one notification. */
export const MAX_NOTIFICATION_EVENTS = 250

const text = (description: string, example: string) =>
  Schema.String.pipe(Schema.minLength(1, { message: () => "Must not be empty" })).annotations({
    description,
    examples: [example]
  })

// Any JSON value; described as `{}` (Schema.Unknown's own description carries an $id, which a
// document may hold once only, and this object appears twice).
const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  jsonSchema: { type: "object" }
})

export const GoCardlessEvent = Schema.Struct({
  id: text("The event's id; an event is handled once however often it is sent", "EV0123ABCD4567"),
  created_at: Schema.Date.annotations({
    description: "When it happened at GoCardless (RFC 3339)",
    examples: [new Date("2026-11-25T10:15:00.000Z")]
  }),
  resource_type: text("mandates, payments, payouts, refunds, ...", "payments"),
  action: text("What happened to the resource (failed, confirmed, cancelled, ...)", "failed"),
  links: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "The resources it concerns, by kind (payment, mandate, ...)",
    examples: [{ payment: "PM0123ABCD4567" }]
  }),
  details: Schema.optionalWith(JsonObject, { default: () => ({}) }).annotations({
    description: "Why it happened (origin, cause, description, reason_code, ...); kept as sent",
    examples: [
      { origin: "bank", cause: "insufficient_funds", description: "The customer's account had insufficient funds." }
    ]
  }),
  metadata: Schema.optionalWith(JsonObject, { default: () => ({}) }).annotations({
    description: "Kept as sent",
    examples: [{}]
  })
}).annotations({ identifier: "GoCardlessEvent", parseOptions: { errors: "all" } })

export const GoCardlessNotification = Schema.Struct({
  events: Schema.Array(GoCardlessEvent).pipe(
    Schema.maxItems(MAX_NOTIFICATION_EVENTS, { message: () => `At most ${MAX_NOTIFICATION_EVENTS} events` })
  ),
  meta: Schema.optionalWith(Schema.Struct({ webhook_id: Schema.optionalWith(Schema.String, { nullable: true }) }), {
    nullable: true
  })
}).annotations({
  identifier: "GoCardlessWebhook",
  description: "A GoCardless webhook, as GoCardless sends it",
  parseOptions: { errors: "all" },
  examples: [
    {
      events: [
        {
          id: "EV0123ABCD4567",
          created_at: new Date("2026-11-25T10:15:00.000Z"),
          resource_type: "payments",
          action: "failed",
          links: { payment: "PM0123ABCD4567" },
          details: {
            origin: "bank",
            cause: "insufficient_funds",
            description: "The customer's account had insufficient funds."
          },
          metadata: {}
        }
      ],
      meta: { webhook_id: "WB0123ABCD4567" }
    }
  ]
})
export type GoCardlessNotification = typeof GoCardlessNotification.Type

export const GoCardlessNotificationHeaders = Schema.Struct({
  "webhook-signature": Schema.optional(Schema.String).annotations({
    description: "The hex HMAC-SHA256 of the raw body, keyed with GOCARDLESS_WEBHOOK_SECRET",
    examples: ["9a4d1c2b3e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"]
  })
})

/** GoCardless's wire words as the service's events. */
export const providerEventBatchOf = (notification: GoCardlessNotification): ProviderEventBatch => ({
  notificationId: notification.meta?.webhook_id ?? null,
  events: notification.events.map((e) => ({
    id: e.id,
    createdAt: e.created_at,
    resourceType: e.resource_type,
    action: e.action,
    resourceId: resourceIdOf(e.resource_type, e.links),
    links: e.links,
    details: e.details,
    metadata: e.metadata
  }))
})
