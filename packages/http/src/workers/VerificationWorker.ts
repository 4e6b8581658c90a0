import { VerificationWork } from "@cisbook/core/usecases/VerificationWork"
import { Duration, Effect, Layer } from "effect"
import { VerificationWorkerConfig, type VerificationWorkerOptions } from "./VerificationWorkerConfig.js"

/**
 * The verification worker: runs while its layer lives, claiming due requests a batch at a time
 * (SKIP LOCKED, so any number of processes can run it), sending each to the tax authority and
 * recording the answer; when fewer than a batch were due it waits `pollInterval`. Closing the
 * layer stops it at once: requests in flight are abandoned unsettled and their leases run out,
 * so another worker sends them again.
 */
export const verificationWorker = (options: VerificationWorkerOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const work = yield* VerificationWork
      const round = work
        .workDue(options.batch, options.lease)
        .pipe(
          Effect.catchAllCause((cause) =>
            Effect.as(Effect.logError("Could not work through due verification requests", cause), 0)
          )
        )
      yield* Effect.logInfo(
        `Verification worker started: up to ${options.batch} requests at once, polling every ${Duration.format(options.pollInterval)}`
      )
      yield* round.pipe(
        Effect.flatMap((n) => (n === options.batch ? Effect.void : Effect.sleep(options.pollInterval))),
        Effect.forever,
        Effect.forkScoped
      )
    })
  )

/** The worker as VERIFICATION_WORKER, VERIFICATION_POLL_INTERVAL_MS, VERIFICATION_BATCH and VERIFICATION_LEASE_SECONDS say. */
export const VerificationWorkerLive = Layer.unwrapEffect(
  Effect.map(VerificationWorkerConfig, ({ enabled, ...options }) =>
    enabled ? verificationWorker(options) : Layer.empty
  )
)
