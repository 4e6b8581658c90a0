import { Config, Duration } from "effect"
import { wholeNumberBetween as between } from "./WholeNumberConfig.js"

export interface ReturnFilerOptions {
  readonly pollInterval: Duration.Duration
  /** How many returns one process submits at once. */
  readonly concurrency: number
  /** How long a claimed return is held; unrecorded by then, it is due again. */
  readonly lease: Duration.Duration
}

/** RETURN_FILER (on unless false) and its settings. */
export const ReturnFilerConfig = Config.all({
  enabled: Config.withDefault(Config.boolean("RETURN_FILER"), true),
  pollInterval: Config.map(between("RETURN_POLL_INTERVAL_MS", 1000, 10, 60_000), Duration.millis),
  concurrency: between("RETURN_CONCURRENCY", 10, 1, 200),
  // Longer than the tax authority takes to answer and the statements take to render, so that a
  // live filer never loses its lease.
  lease: Config.map(between("RETURN_LEASE_SECONDS", 300, 60, 3600), Duration.seconds)
})
