import { Clock } from "@cisbook/core/system/Clock"
import { Duration, Effect, Schedule } from "effect"
import type { SandboxStore } from "./SandboxStore.js"

/** How often the sandbox sweeps what it keeps. */
export const SWEEP_INTERVAL = Duration.hours(1)

/** Deletes what the sandbox made longer than `retention` ago; how many rows went. */
export const sweepSandbox = (store: SandboxStore, retention: Duration.Duration) =>
  Effect.flatMap(Clock, (clock) =>
    Effect.flatMap(clock.now, (now) => store.sweep(new Date(now.getTime() - Duration.toMillis(retention))))
  )

/**
 * Sweeps the sandbox every hour. Like the idempotency keys' sweeper, no outbox: a sweep missed
 * (the process stopped) is done by the next, and a DELETE by age is safe from any number of processes.
 */
export const runSandboxSweeper = (store: SandboxStore, retention: Duration.Duration) =>
  sweepSandbox(store, retention).pipe(
    Effect.tap((swept) => (swept > 0 ? Effect.logDebug(`Deleted ${swept} old GoCardless sandbox rows`) : Effect.void)),
    Effect.catchAllCause((cause) => Effect.logWarning("The GoCardless sandbox could not be swept", cause)),
    Effect.repeat(Schedule.spaced(SWEEP_INTERVAL)),
    Effect.asVoid
  )
