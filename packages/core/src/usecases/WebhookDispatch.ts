import { Duration, Effect } from "effect"
import { Clock } from "../ports/Clock.js"
import { type ClaimedDelivery, DeliveryRepo, type RecordedAttempt } from "../ports/DeliveryRepo.js"
import { WebhookSender } from "../ports/WebhookSender.js"
import { afterAttempt } from "../webhooks/DeliverySchedule.js"
import { DeliveryAttempt } from "../webhooks/WebhookDelivery.js"
import { webhookBody } from "../webhooks/WebhookMessage.js"

/**
 * What a dispatcher does: lease due deliveries, send each, and record each attempt with the
 * schedule it leaves (several at once, when they come fast). A dispatcher that dies between the two leaves the lease to run out, and
 * the delivery is sent again, with the same webhook-id (at least once).
 */
export class WebhookDispatch extends Effect.Service<WebhookDispatch>()("core/WebhookDispatch", {
  effect: Effect.gen(function* () {
    const repo = yield* DeliveryRepo
    const sender = yield* WebhookSender
    const clock = yield* Clock

    /** Leases up to `limit` due deliveries for `lease`. */
    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) => repo.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit))

    /** One attempt of a leased delivery, and the schedule it leaves, to be recorded. */
    const attempt = (claimed: ClaimedDelivery): Effect.Effect<RecordedAttempt> =>
      Effect.gen(function* () {
        const at = yield* clock.now
        const outcome = yield* sender.send({
          url: claimed.url,
          secret: claimed.secret,
          messageId: claimed.eventId,
          timestamp: at,
          body: webhookBody({ type: claimed.eventType, occurredAt: claimed.occurredAt, data: claimed.eventData })
        })
        const finishedAt = yield* clock.now
        return {
          tenantId: claimed.tenantId,
          id: claimed.id,
          leaseToken: claimed.leaseToken,
          attempt: new DeliveryAttempt({ at, ...outcome }),
          schedule: afterAttempt(claimed.schedule, { at: finishedAt, responseStatus: outcome.responseStatus })
        }
      }).pipe(Effect.withSpan("WebhookDispatch.attempt"))

    /** Records attempts (in one go, however many) and ends their leases. */
    const record = (attempts: ReadonlyArray<RecordedAttempt>) =>
      attempts.length === 0 ? Effect.void : repo.record(attempts)

    /** Claims up to `limit` due deliveries, attempts them all at once, and records the attempts; how many there were. */
    const dispatchDue = (limit: number, lease: Duration.Duration): Effect.Effect<number> =>
      claim(limit, lease).pipe(
        Effect.flatMap((claimed) => Effect.forEach(claimed, attempt, { concurrency: "unbounded" })),
        Effect.tap(record),
        Effect.map((attempts) => attempts.length)
      )

    return { claim, attempt, record, dispatchDue } as const
  })
}) {}
