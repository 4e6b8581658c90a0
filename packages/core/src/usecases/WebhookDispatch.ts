import { Duration, Effect } from "effect"
import { Clock } from "../ports/Clock.js"
import { type ClaimedDelivery, DeliveryRepo } from "../ports/DeliveryRepo.js"
import { WebhookSender } from "../ports/WebhookSender.js"
import { afterAttempt } from "../webhooks/DeliverySchedule.js"
import { DeliveryAttempt } from "../webhooks/WebhookDelivery.js"
import { webhookBody } from "../webhooks/WebhookMessage.js"

/**
 * What a dispatcher does: lease due deliveries, send each, and record each attempt with the
 * schedule it leaves. A dispatcher that dies between the two leaves the lease to run out, and
 * the delivery is sent again, with the same webhook-id (at least once).
 */
export class WebhookDispatch extends Effect.Service<WebhookDispatch>()("core/WebhookDispatch", {
  effect: Effect.gen(function* () {
    const repo = yield* DeliveryRepo
    const sender = yield* WebhookSender
    const clock = yield* Clock

    /** Leases up to `limit` due deliveries for `lease`. */
    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) =>
        repo.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit)
      )

    /** One attempt of a leased delivery, recorded. */
    const deliver = (claimed: ClaimedDelivery): Effect.Effect<void> =>
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
        yield* repo.record([
          {
            tenantId: claimed.tenantId,
            id: claimed.id,
            leaseToken: claimed.leaseToken,
            attempt: new DeliveryAttempt({ at, ...outcome }),
            schedule: afterAttempt(claimed.schedule, { at: finishedAt, responseStatus: outcome.responseStatus })
          }
        ])
      }).pipe(Effect.withSpan("WebhookDispatch.deliver"))

    /** Claims up to `limit` due deliveries and delivers them all at once; how many there were. */
    const dispatchDue = (limit: number, lease: Duration.Duration): Effect.Effect<number> =>
      Effect.flatMap(claim(limit, lease), (claimed) =>
        Effect.as(Effect.forEach(claimed, deliver, { concurrency: "unbounded", discard: true }), claimed.length)
      )

    return { claim, deliver, dispatchDue } as const
  })
}) {}
