import { ReturnFiling } from "@cisbook/core/usecases/ReturnFiling"
import { Duration, Effect, Layer } from "effect"
import { runLeasedWorker } from "./LeasedWorker.js"
import { ReturnFilerConfig, type ReturnFilerOptions } from "./ReturnFilerConfig.js"

/**
 * The return filer: a leased worker over the Submitted monthly returns (see LeasedWorker). A
 * return in flight when it stops is taken over by another filer, which polls it rather than send
 * it again when the tax authority already has it (see ReturnFiling).
 */
export const returnFiler = (options: ReturnFilerOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const filing = yield* ReturnFiling
      yield* Effect.logInfo(
        `Return filer started: up to ${options.concurrency} returns at once, polling every ${Duration.format(options.pollInterval)}`
      )
      yield* runLeasedWorker(
        {
          name: "monthly returns",
          claim: (limit) => filing.claim(limit, options.lease),
          attempt: filing.submit,
          record: filing.record,
          // The tax authority did not answer (a rejection is an answer).
          failed: (done) => done.outcome._tag === "Retry"
        },
        options
      )
    })
  )

/** The filer as RETURN_FILER, RETURN_POLL_INTERVAL_MS, RETURN_CONCURRENCY and RETURN_LEASE_SECONDS say. */
export const ReturnFilerLive = Layer.unwrapEffect(
  Effect.map(ReturnFilerConfig, ({ enabled, ...options }) =>
    enabled ? returnFiler(options).pipe(Layer.provide(ReturnFiling.Default)) : Layer.empty
  )
)
