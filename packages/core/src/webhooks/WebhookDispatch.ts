import { Duration, Effect } from "effect"
import { Clock } from "../system/Clock.js"
import { type ClaimedDelivery, DeliveryRepo, type RecordedAttempt } from "./DeliveryRepo.js"
import { type SendOutcome, WebhookSender } from "./WebhookSender.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { Transactor } from "../system/Transactor.js"
import { afterAttempt } from "./DeliverySchedule.js"
import { endpointAfterAttempt } from "./EndpointHealth.js"
import { DeliveryAttempt } from "./WebhookDelivery.js"
import { webhookBody } from "./WebhookMessage.js"
import { trustedInstance } from "../TrustedInstance.js"

/** A span made for every batch of attempts: it captures no stack trace (a new Error a batch). */
const HOT_SPAN = { captureStackTrace: false } as const

/**
 * What a dispatcher does: lease due deliveries, send the batch at once, and record its attempts,
 * each with the schedule it leaves, in one statement, disabling a webhook that is gone
 * or has failed for 5 days. A dispatcher that dies between the two leaves the lease to run out, and
 * the delivery is sent again, with the same webhook-id (at least once).
 */
export class WebhookDispatch extends Effect.Service<WebhookDispatch>()("core/WebhookDispatch", {
  effect: Effect.gen(function* () {
    const repo = yield* DeliveryRepo
    const sender = yield* WebhookSender
    const clock = yield* Clock
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor

    /** Leases up to `limit` due deliveries for `lease`. */
    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) => repo.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit))

    const messageOf = (claimed: ClaimedDelivery, at: Date) => ({
      url: claimed.endpoint.url,
      secrets: claimed.secrets,
      messageId: claimed.eventId,
      timestamp: at,
      body: webhookBody({ type: claimed.eventType, occurredAt: claimed.occurredAt, data: claimed.eventData })
    })

    /** An attempt started at `at` and ended at `endedAt`, and the schedule it leaves, to be recorded. */
    const recorded = (claimed: ClaimedDelivery, at: Date, outcome: SendOutcome, endedAt: Date): RecordedAttempt => {
      const ended = { at: endedAt, responseStatus: outcome.responseStatus }
      return {
        tenantId: claimed.tenantId,
        id: claimed.id,
        leaseToken: claimed.leaseToken,
        // The sender made the outcome; a second check of it on every attempt costs more than it tells.
        attempt: trustedInstance(DeliveryAttempt, { at, ...outcome }),
        schedule: afterAttempt(claimed.schedule, ended),
        webhookId: claimed.endpoint.webhookId,
        endpoint: endpointAfterAttempt(claimed.endpoint, ended)
      }
    }

    /**
     * One attempt of each leased delivery, sent all at once, and the schedule each leaves, to be
     * recorded together: one effect and one span for the batch, none an attempt. Each attempt
     * ends when its receiver answered (its duration after the batch's start), never after the
     * batch's end: a clock that stands still (a test's) has both at the start.
     */
    const attemptAll = (claimed: ReadonlyArray<ClaimedDelivery>): Effect.Effect<ReadonlyArray<RecordedAttempt>> =>
      claimed.length === 0
        ? Effect.succeed([])
        : Effect.gen(function* () {
            const at = yield* clock.now
            const outcomes = yield* sender.sendAll(claimed.map((delivery) => messageOf(delivery, at)))
            const finishedAt = (yield* clock.now).getTime()
            return claimed.map((delivery, i) => {
              const outcome = outcomes[i]!
              const endedAt = new Date(Math.min(at.getTime() + outcome.durationMs, finishedAt))
              return recorded(delivery, at, outcome, endedAt)
            })
          }).pipe(Effect.withSpan("WebhookDispatch.attemptAll", HOT_SPAN))

    /** One attempt of a leased delivery, and the schedule it leaves, to be recorded. */
    const attempt = (claimed: ClaimedDelivery): Effect.Effect<RecordedAttempt> =>
      Effect.map(attemptAll([claimed]), (attempts) => attempts[0]!)

    /**
     * Records attempts (in one go, however many) and ends their leases; a webhook an attempt
     * disabled gets its webhook.disabled event in the same transaction.
     */
    const record = (attempts: ReadonlyArray<RecordedAttempt>): Effect.Effect<void> =>
      attempts.length === 0
        ? Effect.void
        : transaction(
            Effect.flatMap(repo.record(attempts), (disabled) =>
              Effect.forEach(disabled, ({ endpoint, tenantId }) =>
                endpoint._tag === "Disable" ? outbox.record(tenantId, [endpoint.event]) : Effect.void
              )
            )
          ).pipe(Effect.asVoid)

    /** Claims up to `limit` due deliveries, attempts them all at once, and records the attempts; how many there were. */
    const dispatchDue = (limit: number, lease: Duration.Duration): Effect.Effect<number> =>
      claim(limit, lease).pipe(
        Effect.flatMap(attemptAll),
        Effect.tap(record),
        Effect.map((attempts) => attempts.length)
      )

    return { claim, attempt, attemptAll, record, dispatchDue } as const
  })
}) {}
