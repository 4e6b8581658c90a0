import { Effect } from "effect"
import { InvalidSignature, ValidationFailed } from "../../Errors.js"
import { Clock } from "../../system/Clock.js"
import { Transactor } from "../../system/Transactor.js"
import type { ProviderEventBatch, ProviderEventSummary } from "./ProviderEvent.js"
import { ProviderEventInbox } from "./ProviderEventInbox.js"
import { ProviderEventSignature } from "./ProviderEventSignature.js"

export const MAX_PROVIDER_EVENT_LIST = 500

const badSignature = new InvalidSignature({
  detail:
    "The Webhook-Signature header is missing or is not the HMAC-SHA256 of the body with the webhook secret. Nothing was stored."
})

/**
 * The direct debit provider's events (GoCardless's notifications) received: a signed body's events go
 * into the inbox at once, all or none, for ProviderEventHandling's worker to handle each once.
 */
export class ProviderEventReceiving extends Effect.Service<ProviderEventReceiving>()("core/ProviderEventReceiving", {
  effect: Effect.gen(function* () {
    const inbox = yield* ProviderEventInbox
    const signature = yield* ProviderEventSignature
    const { transaction } = yield* Transactor
    const clock = yield* Clock

    /** Refuses a body the provider did not sign with the shared secret, before it is read. */
    const authenticate = (body: string, signed: string | undefined): Effect.Effect<void, InvalidSignature> =>
      Effect.flatMap(signature.verify(body, signed), (valid) => (valid ? Effect.void : Effect.fail(badSignature)))

    /** Stores the events in the inbox, all or none; an event stored before is left as it is. */
    const receive = (batch: ProviderEventBatch): Effect.Effect<void> =>
      clock.now.pipe(
        Effect.flatMap((now) => transaction(inbox.add(batch, now))),
        Effect.asVoid,
        Effect.withSpan("ProviderEventReceiving.receive", { attributes: { events: batch.events.length } })
      )

    /** The newest received events, newest first: for support staff. */
    const list = (limit: number): Effect.Effect<ReadonlyArray<ProviderEventSummary>, ValidationFailed> =>
      Number.isInteger(limit) && limit >= 1 && limit <= MAX_PROVIDER_EVENT_LIST
        ? inbox.list(limit)
        : Effect.fail(ValidationFailed.one("limit", `Must be a whole number from 1 to ${MAX_PROVIDER_EVENT_LIST}`))

    return { authenticate, receive, list } as const
  })
}) {}
