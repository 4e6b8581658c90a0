import { WebhookDispatch } from "@cisbook/core/usecases/WebhookDispatch"
import { Duration, Effect, FiberSet, Layer } from "effect"
import { DispatcherConfig, type DispatcherOptions } from "./WebhookConfig.js"

/**
 * The dispatcher: runs while its layer lives, keeping up to `concurrency` deliveries in flight.
 * Whenever a slot is free it claims due deliveries for the free slots (SKIP LOCKED, so any
 * number of processes can run it); when fewer were due it waits `pollInterval`. Closing the
 * layer (SIGTERM) stops it at once: attempts in flight are abandoned unrecorded, and their
 * leases run out, so another dispatcher sends them again with the same webhook-id.
 */
export const webhookDispatcher = (options: DispatcherOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const dispatch = yield* WebhookDispatch
      const slots = yield* Effect.makeSemaphore(options.concurrency)
      const inFlight = yield* FiberSet.make()

      const deliver = (claimed: Parameters<typeof dispatch.deliver>[0]) =>
        dispatch.deliver(claimed).pipe(
          Effect.catchAllCause((cause) => Effect.logError("A webhook delivery could not be recorded", cause)),
          Effect.ensuring(slots.release(1))
        )

      /** One claim for every free slot; true when it filled them all (more may be due). */
      const round = Effect.gen(function* () {
        const more = yield* slots.take(1)
        yield* slots.take(more)
        const free = 1 + more
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
