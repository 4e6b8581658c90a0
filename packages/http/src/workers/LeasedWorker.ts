import { Duration, Effect, FiberSet, Layer, Queue, type Scope } from "effect"
import { jobAttempts, jobFailures, jobLabel } from "../metrics/JobMetrics.js"

export interface LeasedWorkerOptions {
  /** How long to wait before looking again when nothing was due. */
  readonly pollInterval: Duration.Duration
  /** How many items one process works on at once. */
  readonly concurrency: number
  /** How long a claimed item is held; unrecorded by then, it is due again. */
  readonly lease: Duration.Duration
}

/**
 * What a worker does with its outbox, as a core use case offers it (WebhookDispatch,
 * MailDispatch, ReturnFiling, VerificationWork): lease due items, attempt one, record what came
 * of some. A use case whose attempts are cheap and many (WebhookDispatch) also offers
 * `attemptAll`: one attempt of each item of a claim, made together in one effect.
 */
export interface LeasedWork<Claimed, Done> {
  readonly claim: (limit: number, lease: Duration.Duration) => Effect.Effect<ReadonlyArray<Claimed>>
  readonly attempt: (claimed: Claimed) => Effect.Effect<Done>
  readonly attemptAll?: (claimed: ReadonlyArray<Claimed>) => Effect.Effect<ReadonlyArray<Done>>
  readonly record: (done: ReadonlyArray<Done>) => Effect.Effect<void>
}

/**
 * How a worker's log lines and metrics name it ("Webhook dispatcher", its "deliveries", and its
 * "webhook deliveries", the job webhook_deliveries), and which outcomes are failed attempts.
 */
export interface LeasedWorkerNames<Done> {
  readonly worker: string
  readonly items: string
  readonly work: string
  /** Whether an attempt failed (it is tried again later, or given up), for the job's metrics. */
  readonly failed: (done: Done) => boolean
}

/** The most outcomes recorded in one statement. */
const RECORD_BATCH = 200

/**
 * The one shape of the server's workers: runs while its scope lives, keeping up to
 * `concurrency` items in flight. Whenever a slot is free it claims due items for the free
 * slots (SKIP LOCKED, so any number of processes can run it); when fewer were due it waits
 * `pollInterval`. Finished items are recorded in batches, as fast as the database takes them.
 * Closing the scope (SIGTERM) stops it at once: finished items are recorded, items in flight
 * are abandoned unrecorded, and their leases run out, so another process takes them again.
 *
 * A work that offers `attemptAll` is run a claim at a time instead: each claim is one fiber
 * and one span, which attempts its items together and records them in one statement, then
 * frees their slots; the claim is the unit of work, at least once, as an item is otherwise.
 */
export const runLeasedWorker = <Claimed, Done>(
  work: LeasedWork<Claimed, Done>,
  names: LeasedWorkerNames<Done>,
  options: LeasedWorkerOptions
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function* () {
    yield* Effect.logInfo(
      `${names.worker} started: up to ${options.concurrency} ${names.items} at once, polling every ${Duration.format(options.pollInterval)}`
    )
    const slots = yield* Effect.makeSemaphore(options.concurrency)
    const finished = yield* Queue.unbounded<Done>()
    const record = (done: ReadonlyArray<Done>) =>
      work
        .record(done)
        .pipe(Effect.catchAllCause((cause) => Effect.logError(`Finished ${names.work} could not be recorded`, cause)))
    // Closed in reverse: the loop stops, items in flight are abandoned, then what finished is recorded.
    yield* Effect.addFinalizer(() => Effect.flatMap(Queue.takeAll(finished), (rest) => record([...rest])))
    const inFlight = yield* FiberSet.make()
    // A batch once taken is recorded, even while the worker stops.
    yield* Effect.uninterruptibleMask((restore) =>
      restore(Queue.takeBetween(finished, 1, RECORD_BATCH)).pipe(Effect.flatMap((batch) => record([...batch])))
    ).pipe(Effect.forever, Effect.forkScoped)

    const job = jobLabel(names.work)
    const attempts = jobAttempts.labels({ job })
    const failures = jobFailures.labels({ job })
    const attempt = (claimed: Claimed) =>
      work.attempt(claimed).pipe(
        Effect.tap((done) =>
          Effect.sync(() => {
            attempts.inc()
            if (names.failed(done)) failures.inc()
          })
        ),
        // Each attempt is a trace of its own (its SQL and provider calls under it).
        Effect.withSpan(`job ${job}`, { root: true, attributes: { "cisbook.job": job }, captureStackTrace: false })
      )

    const run = (claimed: Claimed) =>
      attempt(claimed).pipe(
        Effect.flatMap((done) => Queue.offer(finished, done)),
        Effect.ensuring(slots.release(1))
      )

    const attemptAll = work.attemptAll
    /** A claim's items attempted together, then recorded together, even while the worker stops. */
    const runAll = (claimed: ReadonlyArray<Claimed>) =>
      attemptAll === undefined
        ? Effect.void
        : Effect.uninterruptibleMask((restore) =>
            restore(attemptAll(claimed)).pipe(
              Effect.tap((done) =>
                Effect.sync(() => {
                  attempts.inc(done.length)
                  for (const item of done) if (names.failed(item)) failures.inc()
                })
              ),
              Effect.flatMap(record)
            )
          ).pipe(
            Effect.withSpan(`job ${job}`, {
              root: true,
              attributes: { "cisbook.job": job, "cisbook.job.items": claimed.length },
              captureStackTrace: false
            }),
            Effect.ensuring(slots.release(claimed.length))
          )

    // Slots are claimed for a quarter of them at least, so that a busy worker claims in
    // batches rather than one item per finished one.
    const least = Math.max(1, Math.floor(options.concurrency / 4))

    /** One claim for every free slot; true when it filled them all (more may be due). */
    const round = Effect.gen(function* () {
      yield* slots.take(least)
      // And every other slot free right now, without waiting for more (release(0) tells how many).
      const more = yield* slots.release(0)
      yield* slots.take(more)
      const free = least + more
      const claimed = yield* work.claim(free, options.lease).pipe(Effect.onError(() => slots.release(free)))
      yield* slots.release(free - claimed.length)
      if (attemptAll !== undefined) {
        if (claimed.length > 0) yield* FiberSet.run(inFlight, runAll(claimed))
      } else for (const item of claimed) yield* FiberSet.run(inFlight, run(item))
      return claimed.length === free
    }).pipe(
      Effect.catchAllCause((cause) => Effect.as(Effect.logError(`Could not claim due ${names.work}`, cause), false))
    )

    yield* round.pipe(
      Effect.flatMap((busy) => (busy ? Effect.void : Effect.sleep(options.pollInterval))),
      Effect.forever,
      Effect.forkScoped
    )
  })

/** The layer of a worker that runs the use case `work` (its tag) while it lives (see runLeasedWorker). */
export const leasedWorker =
  <Id, Claimed, Done>(work: Effect.Effect<LeasedWork<Claimed, Done>, never, Id>, names: LeasedWorkerNames<Done>) =>
  (options: LeasedWorkerOptions): Layer.Layer<never, never, Id> =>
    Layer.scopedDiscard(Effect.flatMap(work, (use) => runLeasedWorker(use, names, options)))
