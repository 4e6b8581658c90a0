import { Config, Duration } from "effect"
import { wholeNumberBetween as between } from "./WholeNumberConfig.js"

export interface DispatcherOptions {
  /** How long to wait before looking again when nothing was due. */
  readonly pollInterval: Duration.Duration
  /** How many deliveries one process sends at once. */
  readonly concurrency: number
  /** How long a claimed delivery is held; unrecorded by then, it is due again. */
  readonly lease: Duration.Duration
}

/** WEBHOOK_DISPATCHER (on unless false) and its settings. */
export const DispatcherConfig = Config.all({
  enabled: Config.withDefault(Config.boolean("WEBHOOK_DISPATCHER"), true),
  pollInterval: Config.map(between("WEBHOOK_POLL_INTERVAL_MS", 1000, 10, 60_000), Duration.millis),
  concurrency: between("WEBHOOK_CONCURRENCY", 50, 1, 1000),
  // Longer than an attempt can take (15 s), so that a live dispatcher never loses its lease.
  lease: Config.map(between("WEBHOOK_LEASE_SECONDS", 60, 30, 3600), Duration.seconds)
})
