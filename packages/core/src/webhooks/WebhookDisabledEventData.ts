import { Schema } from "effect"

/** Why a webhook was disabled by the service rather than by its tenant. */
export const DisabledReason = Schema.Literal("Gone", "FailingFor5Days").annotations({
  description: "Gone: the endpoint answered 410 Gone. FailingFor5Days: every attempt to the endpoint failed for 5 days."
})
export type DisabledReason = typeof DisabledReason.Type

/** The `data` of a webhook.disabled event, written with the change that disables the webhook. */
export const WebhookDisabledEventData = Schema.Struct({
  webhookId: Schema.String.annotations({ description: "The webhook that was disabled" }),
  url: Schema.String,
  reason: DisabledReason,
  failingSince: Schema.NullOr(Schema.String).annotations({
    description: "When its attempts began to fail (ISO 8601); null when it was disabled for a 410 at once"
  }),
  disabledAt: Schema.String.annotations({ description: "ISO 8601" })
}).annotations({
  identifier: "WebhookDisabledData",
  examples: [
    {
      webhookId: "0193a5f2-7c1e-7b61-9d2a-3f4e5a6b7c8d",
      url: "https://hooks.example.com/cisbook",
      reason: "FailingFor5Days",
      failingSince: "2026-11-16T09:00:00.000Z",
      disabledAt: "2026-11-21T09:00:05.000Z"
    }
  ]
})
export type WebhookDisabledEventData = typeof WebhookDisabledEventData.Type
