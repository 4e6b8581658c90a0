import { VerificationWork } from "@cisbook/core/usecases/VerificationWork"
import { Duration, Effect, Layer } from "effect"
import { runLeasedWorker } from "./LeasedWorker.js"
import { VerificationWorkerConfig, type VerificationWorkerOptions } from "./VerificationWorkerConfig.js"

/**
 * The verification worker: a leased worker over the verification requests (see LeasedWorker).
 * A request in flight when it stops is asked again by another worker.
 */
export const verificationWorker = (options: VerificationWorkerOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const work = yield* VerificationWork
      yield* Effect.logInfo(
        `Verification worker started: up to ${options.concurrency} requests at once, polling every ${Duration.format(options.pollInterval)}`
      )
      yield* runLeasedWorker(
        {
          name: "verification requests",
          claim: (limit) => work.claim(limit, options.lease),
          attempt: work.attempt,
          record: work.record,
          failed: (done) => "unavailable" in done
        },
        options
      )
    })
  )

/** The worker as VERIFICATION_WORKER, VERIFICATION_POLL_INTERVAL_MS, VERIFICATION_CONCURRENCY and VERIFICATION_LEASE_SECONDS say. */
export const VerificationWorkerLive = Layer.unwrapEffect(
  Effect.map(VerificationWorkerConfig, ({ enabled, ...options }) =>
    enabled ? verificationWorker(options) : Layer.empty
  )
)
