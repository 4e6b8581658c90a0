import { VerificationWork } from "@cisbook/core/verification/VerificationWork"
import { leasedWorker } from "./LeasedWorker.js"
import { leasedWorkerConfig, leasedWorkerLive } from "./LeasedWorkerConfig.js"

/** VERIFICATION_WORKER (on unless false) and its settings. */
export const VerificationWorkerConfig = leasedWorkerConfig("VERIFICATION", {
  switch: "VERIFICATION_WORKER",
  concurrency: [20, 1, 500],
  // The tax authority's answer takes less.
  leaseSeconds: [120, 30, 3600]
})

/**
 * The verification worker: a leased worker over the verification requests (see LeasedWorker).
 * A request in flight when it stops is asked again by another worker.
 */
export const verificationWorker = leasedWorker(VerificationWork, {
  worker: "Verification worker",
  items: "requests",
  work: "verification requests",
  failed: (done) => "unavailable" in done
})

export const VerificationWorkerLive = leasedWorkerLive(VerificationWorkerConfig, verificationWorker)
