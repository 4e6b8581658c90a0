import { ReturnFiling } from "@cisbook/core/returns/ReturnFiling"
import { Layer } from "effect"
import { leasedWorker } from "./LeasedWorker.js"
import { leasedWorkerConfig, leasedWorkerLive } from "./LeasedWorkerConfig.js"

/** RETURN_FILER (on unless false) and its settings. */
export const ReturnFilerConfig = leasedWorkerConfig("RETURN", {
  switch: "RETURN_FILER",
  concurrency: [10, 1, 200],
  // The tax authority's answer and the statements' rendering take less.
  leaseSeconds: [300, 60, 3600]
})

/**
 * The return filer: a leased worker over the Submitted monthly returns (see LeasedWorker). A
 * return in flight when it stops is taken over by another filer, which polls it rather than send
 * it again when the tax authority already has it (see ReturnFiling).
 */
export const returnFiler = leasedWorker(ReturnFiling, {
  worker: "Return filer",
  items: "returns",
  work: "monthly returns",
  // The tax authority did not answer (a rejection is an answer).
  failed: (done) => done.outcome._tag === "Retry"
})

export const ReturnFilerLive = leasedWorkerLive(ReturnFilerConfig, (options) =>
  returnFiler(options).pipe(Layer.provide(ReturnFiling.Default))
)
