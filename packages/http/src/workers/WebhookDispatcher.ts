import { WebhookDispatch } from "@cisbook/core/usecases/WebhookDispatch"
import type { ClaimedDelivery, RecordedAttempt } from "@cisbook/core/ports/DeliveryRepo"
import { Duration, Effect, FiberSet, Layer, Queue } from "effect"
import { DispatcherConfig, type DispatcherOptions } from "./DispatcherConfig.js"

/**
 * The dispatcher: runs while its layer lives, keeping up to `concurrency` deliveries in flight.
 * Whenever a slot is free it claims due deliveries for the free slots (SKIP LOCKED, so any
 * number of processes can run it); when fewer were due it waits `pollInterval`. Finished
 * attempts are recorded in batches, as fast as the database takes them. Closing the layer
 * (SIGTERM) stops it at once: finished attempts are recorded, attempts in flight are abandoned
 * unrecorded, and their leases run out, so another dispatcher sends them again with the same
 * webhook-id.
 */
/** The most attempts recorded in one statement. */
const RECORD_BATCH = 200

export const webhookDispatcher = (options: DispatcherOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const dispatch = yield* WebhookDispatch
      const slots = yield* Effect.makeSemaphore(options.concurrency)
      const finished = yield* Queue.unbounded<RecordedAttempt>()
      const record = (attempts: ReadonlyArray<RecordedAttempt>) =>
        dispatch
          .record(attempts)
          .pipe(Effect.catchAllCause((cause) => Effect.logError("Webhook attempts could not be recorded", cause)))
      // Closed in reverse: the loop stops, attempts in flight are abandoned, then what finished is recorded.
      yield* Effect.addFinalizer(() => Effect.flatMap(Queue.takeAll(finished), (rest) => record([...rest])))
      const inFlight = yield* FiberSet.make()
      // A batch once taken is recorded, even while the dispatcher stops.
      yield* Effect.uninterruptibleMask((restore) =>
        restore(Queue.takeBetween(finished, 1, RECORD_BATCH)).pipe(Effect.flatMap((batch) => record([...batch])))
      ).pipe(Effect.forever, Effect.forkScoped)

      const deliver = (claimed: ClaimedDelivery) =>
        dispatch.attempt(claimed).pipe(
          Effect.flatMap((done) => Queue.offer(finished, done)),
          Effect.ensuring(slots.release(1))
        )

      // Slots are claimed for a quarter of them at least, so that a busy dispatcher claims in
      // batches rather than one delivery per finished attempt.
      const least = Math.max(1, Math.floor(options.concurrency / 4))

      /** One claim for every free slot; true when it filled them all (more may be due). */
      const round = Effect.gen(function* () {
        const more = yield* slots.take(least)
        yield* slots.take(more)
        const free = least + more
        const claimed = yield* dispatch.claim(free, options.lease).pipe(Effect.onError(() => slots.release(free)))
        yield* slots.release(free - claimed.length)
        for (const delivery of claimed) yield* FiberSet.run(inFlight, deliver(delivery))
        return claimed.length === free
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logError("Could not claim due webhook deliveries", cause), false)
        )
      )

      yield* Effect.logInfo(
        `Webhook dispatcher started: up to ${options.concurrency} deliveries at once, polling every ${Duration.format(options.pollInterval)}`
      )
      yield* round.pipe(
        Effect.flatMap((busy) => (busy ? Effect.void : Effect.sleep(options.pollInterval))),
        Effect.forever,
        Effect.forkScoped
      )
    })
  )

/** The dispatcher as WEBHOOK_DISPATCHER, WEBHOOK_POLL_INTERVAL_MS, WEBHOOK_CONCURRENCY and WEBHOOK_LEASE_SECONDS say. */
export const WebhookDispatcherLive = Layer.unwrapEffect(
  Effect.map(DispatcherConfig, ({ enabled, ...options }) => (enabled ? webhookDispatcher(options) : Layer.empty))
)
