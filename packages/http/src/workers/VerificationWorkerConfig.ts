import { Config, Duration } from "effect"
import { wholeNumberBetween as between } from "./WholeNumberConfig.js"

export interface VerificationWorkerOptions {
  /** How long to wait before looking again when nothing was due. */
  readonly pollInterval: Duration.Duration
  /** How many requests one process has with the tax authority at once. */
  readonly concurrency: number
  /** How long a claimed request is held; unsettled by then, it is due again. */
  readonly lease: Duration.Duration
}

/** VERIFICATION_WORKER (on unless false) and its settings. */
export const VerificationWorkerConfig = Config.all({
  enabled: Config.withDefault(Config.boolean("VERIFICATION_WORKER"), true),
  pollInterval: Config.map(between("VERIFICATION_POLL_INTERVAL_MS", 1000, 10, 60_000), Duration.millis),
  concurrency: between("VERIFICATION_CONCURRENCY", 20, 1, 500),
  // Longer than the tax authority takes to answer, so that a live worker never loses its lease.
  lease: Config.map(between("VERIFICATION_LEASE_SECONDS", 120, 30, 3600), Duration.seconds)
})
