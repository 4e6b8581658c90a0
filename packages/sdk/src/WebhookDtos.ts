import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageLimit, PageOffset } from "@cisbook/core/Paging"
import { EventType } from "@cisbook/core/events/Event"
import { DeliveryStatus } from "@cisbook/core/webhooks/WebhookDelivery"
import { WebhookDescription } from "@cisbook/core/webhooks/WebhookInput"
import { WebhookUrl } from "@cisbook/core/webhooks/WebhookUrl"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

const EventTypes = Schema.Array(EventType).annotations({
  description: "The event kinds to receive; empty means every kind",
  examples: [["contact.created", "subcontractor.created"]]
})

const NewWebhookFields = {
  url: WebhookUrl,
  description: optional(WebhookDescription),
  eventTypes: optional(EventTypes).annotations({ description: "Default: every kind" }),
  enabled: optional(Schema.Boolean).annotations({ description: "Default true" })
}

const WebhookReplacementFields = {
  url: WebhookUrl,
  description: optional(WebhookDescription),
  eventTypes: EventTypes,
  enabled: Schema.Boolean
}

const webhookFields = {
  id: Schema.String.annotations({ examples: ["0196a5f2-52c1-7c3a-9d1e-8f27c1b6a003"] }),
  url: Schema.String.annotations({ examples: ["https://hooks.example.com/cisbook"] }),
  description: Schema.NullOr(Schema.String).annotations({ examples: ["Our accounts system"] }),
  eventTypes: Schema.Array(EventType).annotations({ description: "The kinds it receives; empty means every kind" }),
  enabled: Schema.Boolean.annotations({
    description:
      "False when its tenant disabled it, or when the service did: its endpoint answered 410 Gone, or every attempt to it failed for 5 days (a webhook.disabled event then goes to the tenant's other webhooks). Enabling it again starts afresh."
  }),
  createdAt: Schema.Date
}

const secret = Schema.String.annotations({
  description:
    "The signing secret (whsec_ and base64), shown this once. Verify deliveries with it, e.g. with a Standard Webhooks library.",
  examples: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwT0lJmbC3Fjo="]
})

export class WebhookDto extends Schema.Class<WebhookDto>("WebhookDto")(webhookFields) {}

export class CreatedWebhookDto extends Schema.Class<CreatedWebhookDto>("CreatedWebhookDto")({
  ...webhookFields,
  secret
}) {}

export class WebhookSecretDto extends Schema.Class<WebhookSecretDto>("WebhookSecretDto")({ secret }) {}

export const CreateWebhookRequest = requestBody("CreateWebhookRequest", NewWebhookFields).annotations({
  identifier: "CreateWebhookRequest",
  description:
    "The URL must be https (plain http only where WEBHOOK_ALLOW_PRIVATE_TARGETS=true) and lead to a public address.",
  examples: [{ url: "https://hooks.example.com/cisbook", description: "Our accounts system", eventTypes: [] }]
})

export const ReplaceWebhookRequest = requestBody("ReplaceWebhookRequest", WebhookReplacementFields).annotations({
  identifier: "ReplaceWebhookRequest",
  description: "Replaces the url, description, event types and enabled flag.",
  examples: [{ url: "https://hooks.example.com/cisbook", eventTypes: ["contact.created"], enabled: false }]
})

const deliveryFields = {
  id: Schema.String.annotations({ examples: ["0196a5f2-52c1-7c3a-9d1e-8f27c1b6a004"] }),
  webhookId: Schema.String.annotations({ examples: ["0196a5f2-52c1-7c3a-9d1e-8f27c1b6a003"] }),
  eventId: Schema.String.annotations({
    description: "Also the webhook-id header: the same on every attempt",
    examples: ["0196a5f2-52c1-7c3a-9d1e-8f27c1b6a005"]
  }),
  eventType: EventType,
  status: DeliveryStatus.annotations({
    description:
      "Pending: waiting for its first attempt or a requested retry. Succeeded: an attempt got a 2xx. Failed: the latest attempt failed."
  }),
  attempts: Schema.Int.annotations({ examples: [1] }),
  createdAt: Schema.Date,
  lastAttemptAt: Schema.NullOr(Schema.Date),
  nextAttemptAt: Schema.NullOr(Schema.Date).annotations({
    description: "When the next attempt is due; null once it succeeded or the automatic retries are spent"
  }),
  responseStatus: Schema.NullOr(Schema.Int).annotations({ description: "The latest attempt's HTTP status" }),
  responseBody: Schema.NullOr(Schema.String).annotations({ description: "The latest attempt's answer, cut at 4 KiB" })
}

export class WebhookDeliveryDto extends Schema.Class<WebhookDeliveryDto>("WebhookDeliveryDto")(deliveryFields) {}

export class DeliveryAttemptDto extends Schema.Class<DeliveryAttemptDto>("DeliveryAttemptDto")({
  at: Schema.Date,
  responseStatus: Schema.NullOr(Schema.Int).annotations({ description: "null when no answer came" }),
  durationMs: Schema.Int,
  error: Schema.NullOr(Schema.String).annotations({
    description: "Why it failed when the status does not say: refused destination, no answer in 15 s, a redirect"
  })
}) {}

export class WebhookDeliveryDetailDto extends Schema.Class<WebhookDeliveryDetailDto>("WebhookDeliveryDetailDto")({
  ...deliveryFields,
  attemptLog: Schema.Array(DeliveryAttemptDto).annotations({ description: "Every attempt, oldest first" })
}) {}

export const WebhookDeliveryPagedResult = Schema.Struct({
  items: Schema.Array(WebhookDeliveryDto),
  totalCount: Schema.Int.annotations({ description: "Every matching delivery, on any page" }),
  offset: Schema.Int,
  limit: Schema.Int.annotations({ description: `The page size served: at most ${MAX_PAGE_SIZE}` })
}).annotations({ identifier: "WebhookDeliveryPagedResult", description: "A page of deliveries, newest first" })

const fromString = <A>(schema: Schema.Schema<A, number>) => Schema.compose(Schema.NumberFromString, schema)

export const DeliveryListParams = Schema.Struct({
  status: Schema.optional(DeliveryStatus.annotations({ description: "Only deliveries in this status" })),
  offset: Schema.optional(fromString(PageOffset).annotations({ description: "Deliveries to skip", default: 0 })),
  limit: Schema.optional(
    fromString(PageLimit).annotations({
      description: `Deliveries per page, 1 or more; above ${MAX_PAGE_SIZE} is served as ${MAX_PAGE_SIZE}`,
      default: DEFAULT_PAGE_SIZE
    })
  )
}).annotations({ parseOptions: { errors: "all" } })
