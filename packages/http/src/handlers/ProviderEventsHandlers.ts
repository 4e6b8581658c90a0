import { resourceIdOf } from "@cisbook/core/billing/providerevents/ProviderEvent"
import { ProviderEventReceiving } from "@cisbook/core/billing/providerevents/ProviderEventReceiving"
import { CisbookApi } from "@cisbook/sdk/Api"
import { GoCardlessWebhookDto } from "@cisbook/sdk/ProviderEventDtos"
import { HttpApiBuilder } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { Effect, Schema } from "effect"

const decodeWebhook = Schema.decode(Schema.parseJson(GoCardlessWebhookDto), { errors: "all" })

/** GoCardless's wire words as the service's events. */
const batchOf = (webhook: GoCardlessWebhookDto) => ({
  webhookId: webhook.meta?.webhook_id ?? null,
  events: webhook.events.map((e) => ({
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

/**
 * The signature is checked over the raw body before anything is decoded (so the endpoint is
 * handled raw); a body that does not decode is a validation problem, as everywhere in the API.
 */
export const ProviderEventsHandlers = HttpApiBuilder.group(CisbookApi, "providerEvents", (handlers) =>
  Effect.map(ProviderEventReceiving, (events) =>
    handlers.handleRaw("receiveGoCardlessWebhook", ({ headers, request }) =>
      // A body that cannot be read (over 1 MiB, cut short) is answered by the problem middleware.
      Effect.orDie(request.text).pipe(
        Effect.tap((body) => events.authenticate(body, headers["webhook-signature"])),
        Effect.flatMap((body) =>
          decodeWebhook(body).pipe(Effect.catchTag("ParseError", HttpApiDecodeError.refailParseError))
        ),
        Effect.flatMap((webhook) => events.receive(batchOf(webhook)))
      )
    )
  )
)
