import { Data, Effect, Option, Schedule } from "effect"

/**
 * The store could not do the work just now, for a reason that passes: a lock or statement
 * time-out, a deadlock, a lost connection, the embedded database busy. Like every other failure
 * of the store it is a defect (use cases do not declare it), but one the same work may get past
 * a moment later: a use case may try it again ({@link retryWhenBusy}).
 */
export class StoreBusy extends Data.TaggedError("StoreBusy")<{
  /** What passed, for the log: "a deadlock", "a lost connection", … */
  readonly reason: string
  readonly cause: unknown
}> {}

/** How often, and after how long, work the store was too busy for is tried again: about 3 s in all. */
export const BUSY_RETRIES = Schedule.exponential("100 millis").pipe(Schedule.intersect(Schedule.recurs(5)))

/**
 * Runs `effect` again while the store is too busy for it (at most as {@link BUSY_RETRIES} says);
 * when it still is, fails with the StoreBusy, for the caller to report. Other defects and
 * failures are left as they are.
 */
export const retryWhenBusy = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreBusy, R> =>
  effect.pipe(
    Effect.catchSomeDefect((defect) =>
      defect instanceof StoreBusy ? Option.some(Effect.fail(defect)) : Option.none()
    ),
    Effect.retry({ schedule: BUSY_RETRIES, while: (error) => error instanceof StoreBusy })
  )
