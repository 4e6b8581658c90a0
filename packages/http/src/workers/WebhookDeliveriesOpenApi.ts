import { RETRY_DELAYS } from "@cisbook/core/webhooks/DeliverySchedule"
import { ATTEMPT_TIMEOUT } from "@cisbook/core/webhooks/WebhookMessage"
import { eventPayloads } from "@cisbook/sdk/EventPayloads"
import { OpenApiJsonSchema } from "@effect/platform"
import { Duration } from "effect"
import type { Json } from "../api/OpenApiPaths.js"

// How the webhook dispatch worker delivers the events (core's WebhookDispatch, the adapters'
// HttpWebhookSender), in the OpenAPI document.

const header = (name: string, description: string) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string" }
})

const deliveryHeaders = [
  header("webhook-id", "The event's id: the same on every attempt of a delivery, so a receiver can drop repeats"),
  header("webhook-timestamp", "This attempt's time, in Unix seconds; refuse one far from your clock"),
  header(
    "webhook-signature",
    'Space-separated "v1,<base64 HMAC-SHA256 of id.timestamp.body>" signatures, keyed with the webhook secret (base64 after whsec_)'
  )
]

/** A delay as people write it: 5 s, 30 min, 2 h. */
const spoken = (delay: Duration.Duration) => {
  const seconds = Duration.toSeconds(delay)
  if (seconds < 60) return `${seconds} s`
  return seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`
}

const retries = RETRY_DELAYS.map(spoken)
const schedule = `${retries.slice(0, -1).join(", ")} and ${retries.at(-1)}`

/**
 * The events the service delivers, as OpenAPI 3.1 `webhooks` (the platform's generator has no
 * such section): one POST per kind, with the Standard Webhooks headers and the body
 * `{ type, timestamp, data }`, `data` described by its schema in components.
 */
export const withWebhooks = (spec: Json): Json => {
  const defs: Record<string, any> = {}
  spec.webhooks = Object.fromEntries(
    Object.entries(eventPayloads).map(([type, { data, summary }]) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary,
          description: `Delivered at least once: a delivery that fails (no 2xx within ${spoken(ATTEMPT_TIMEOUT)}; redirects are not followed) is tried again ${schedule} after each failure.`,
          parameters: deliveryHeaders,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["type", "timestamp", "data"],
                  properties: {
                    type: { type: "string", enum: [type] },
                    timestamp: { type: "string", format: "date-time", description: "When the event happened" },
                    data: OpenApiJsonSchema.makeWithDefs(data, { defs })
                  },
                  additionalProperties: false
                }
              }
            }
          },
          responses: { "2XX": { description: "Received. Any other answer is a failed attempt." } }
        }
      }
    ])
  )
  spec.components = { ...spec.components, schemas: { ...defs, ...spec.components?.schemas } }
  return spec
}
