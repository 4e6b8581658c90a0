import { KEY_RETENTION_MS } from "@cisbook/core/idempotency/RetryWindow"
import { Clock } from "@cisbook/core/system/Clock"
import { IdempotencyKeys } from "@cisbook/core/idempotency/IdempotencyKeys"
import { Duration, Effect, Layer, Schedule } from "effect"

/** How often the server deletes keys older than a day. */
export const SWEEP_INTERVAL = Duration.hours(1)

/**
 * Deletes expired idempotency keys every hour. No outbox: nothing a change does schedules it, a
 * sweep missed (the process stopped) is done by the next one, and a DELETE by age is safe from
 * any number of processes at once. An expired key is ignored anyway; this keeps the table small.
 */
export const IdempotencyKeySweeperLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const keys = yield* IdempotencyKeys
    const clock = yield* Clock
    const sweep = clock.now.pipe(
      Effect.flatMap((now) => keys.sweep(new Date(now.getTime() - KEY_RETENTION_MS))),
      Effect.tap((swept) => (swept > 0 ? Effect.logDebug(`Deleted ${swept} expired idempotency keys`) : Effect.void)),
      Effect.catchAllCause((cause) => Effect.logWarning("Expired idempotency keys could not be deleted", cause))
    )
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(SWEEP_INTERVAL)))
  })
)
