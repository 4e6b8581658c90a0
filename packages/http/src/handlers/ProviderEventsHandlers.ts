import { GoCardlessNotification, providerEventBatchOf } from "@cisbook/adapters/gocardless/GoCardlessNotification"
import { ProviderEventReceiving } from "@cisbook/core/billing/providerevents/ProviderEventReceiving"
import { HttpApiBuilder } from "@effect/platform"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { Effect, Schema } from "effect"
import { CisbookServerApi } from "../api/ServerApi.js"

const decodeNotification = Schema.decode(Schema.parseJson(GoCardlessNotification), { errors: "all" })

/**
 * The signature is checked over the raw body before anything is decoded (so the endpoint is
 * handled raw); a body that does not decode is a validation problem, as everywhere in the API.
 */
export const ProviderEventsHandlers = HttpApiBuilder.group(CisbookServerApi, "providerEvents", (handlers) =>
  Effect.map(ProviderEventReceiving, (events) =>
    handlers.handleRaw("receiveGoCardlessWebhook", ({ headers, request }) =>
      // A body that cannot be read (over 1 MiB, cut short) is answered by the problem middleware.
      Effect.orDie(request.text).pipe(
        Effect.tap((body) => events.authenticate(body, headers["webhook-signature"])),
        Effect.flatMap((body) =>
          decodeNotification(body).pipe(Effect.catchTag("ParseError", HttpApiDecodeError.refailParseError))
        ),
        Effect.flatMap((notification) => events.receive(providerEventBatchOf(notification)))
      )
    )
  )
)
