import {
  GoCardlessNotification,
  GoCardlessNotificationHeaders,
  MAX_NOTIFICATION_EVENTS
} from "@cisbook/adapters/gocardless/GoCardlessNotification"
import { InvalidSignature } from "@cisbook/core/Errors"
import { forAnyone } from "@cisbook/sdk/Access"
import { ContentTooLargeProblem, ProblemJson, problemFields, ValidationProblem } from "@cisbook/sdk/Problem"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"

/**
 * Where GoCardless sends its notifications, which it calls webhooks (its dashboard is given this
 * path on the server's address).
 */
export const GOCARDLESS_NOTIFICATIONS_PATH = "/webhooks/gocardless"

/** GoCardless's documented answer to a notification whose signature does not match (its guide answers 498). */
export const InvalidSignatureProblem = ProblemJson(
  Schema.transform(
    Schema.Struct({
      ...problemFields("Invalid Signature", 498),
      type: Schema.String.annotations({ examples: ["about:blank"] })
    }).annotations({ identifier: "InvalidSignatureProblem" }),
    InvalidSignature,
    {
      strict: true,
      decode: (body) => ({ _tag: "InvalidSignature" as const, detail: body.detail }),
      encode: (e) => ({
        type: "about:blank",
        title: "Invalid Signature" as const,
        status: 498 as const,
        detail: e.detail
      })
    }
  ).annotations(
    HttpApiSchema.annotations({
      status: 498,
      description: "The Webhook-Signature header is missing or wrong; nothing was stored"
    })
  )
)

/**
 * The server's own endpoints, apart from the client's contract: what GoCardless calls. They are
 * served and documented with the client's API (see ServerApi), never published in the SDK.
 */
export class ProviderEventsApi extends HttpApiGroup.make("providerEvents")
  .add(
    HttpApiEndpoint.post("receiveGoCardlessWebhook", GOCARDLESS_NOTIFICATIONS_PATH)
      .setPayload(GoCardlessNotification)
      .setHeaders(GoCardlessNotificationHeaders)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(ValidationProblem)
      .addError(ContentTooLargeProblem)
      .addError(InvalidSignatureProblem)
      .annotate(OpenApi.Summary, "Receive a GoCardless webhook (called by GoCardless, not by clients)")
      .annotate(
        OpenApi.Description,
        `Needs no API key: the Webhook-Signature header is the credential, the hex HMAC-SHA256 of the raw body keyed with GOCARDLESS_WEBHOOK_SECRET, checked in constant time before the body is read; missing or wrong is 498 and nothing is stored. The body is GoCardless's own: { events, meta: { webhook_id } }, at most ${MAX_NOTIFICATION_EVENTS} events, each { id, created_at, resource_type, action, links, details, metadata } (details and metadata may be omitted). A body that is not such JSON is 400 naming each invalid member; over 1 MiB is 413. Valid: 204 at once, every event stored in one transaction (an event id received before is left as it is, so a replayed webhook changes nothing), and a worker handles each once: mandates events move the user's mandate (submitted, active, failed, cancelled, expired), payments events the billing invoice's payment (confirmed, paid_out, failed, charged_back, cancelled), never backwards; a failed or charged-back payment and an ended mandate send the user's billing email a notice.`
      )
  )
  .annotate(OpenApi.Title, "Provider events")
  .annotate(
    OpenApi.Description,
    "What the direct debit provider (GoCardless) tells the service about mandates and payments, by webhook."
  )
  .pipe(forAnyone) {}
