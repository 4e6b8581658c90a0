import { Schema } from "effect"
import { EventType } from "../events/Event.js"
import { WebhookUrl } from "./WebhookUrl.js"

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { nullable: true })

export const WebhookDescription = Schema.Trim.pipe(
  Schema.maxLength(500, { message: () => "A description has at most 500 characters" })
)

const EventTypes = Schema.Array(EventType).annotations({
  description: "The event kinds to receive; empty means every kind",
  examples: [["contact.created", "subcontractor.created"]]
})

/** A new webhook, as it comes over the wire (CreateWebhookRequest). */
export const NewWebhookFields = {
  url: WebhookUrl,
  description: optional(WebhookDescription),
  eventTypes: optional(EventTypes).annotations({ description: "Default: every kind" }),
  enabled: optional(Schema.Boolean).annotations({ description: "Default true" })
}
export type NewWebhook = Schema.Struct.Type<typeof NewWebhookFields>

/** Every editable member of a webhook (ReplaceWebhookRequest). */
export const WebhookReplacementFields = {
  url: WebhookUrl,
  description: optional(WebhookDescription),
  eventTypes: EventTypes,
  enabled: Schema.Boolean
}
export type WebhookReplacement = Schema.Struct.Type<typeof WebhookReplacementFields>
