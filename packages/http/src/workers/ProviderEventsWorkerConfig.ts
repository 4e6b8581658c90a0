import { Config, Duration } from "effect"
import { wholeNumberBetween as between } from "./WholeNumberConfig.js"

export interface ProviderEventsWorkerOptions {
  /** How long to wait before looking again when nothing was due. */
  readonly pollInterval: Duration.Duration
  /** How many events one process handles at once. */
  readonly concurrency: number
  /** How long a claimed event is held; unsettled by then, it is due again. */
  readonly lease: Duration.Duration
}

/** PROVIDER_EVENTS_WORKER (on unless false) and its settings. */
export const ProviderEventsWorkerConfig = Config.all({
  enabled: Config.withDefault(Config.boolean("PROVIDER_EVENTS_WORKER"), true),
  pollInterval: Config.map(between("PROVIDER_EVENTS_POLL_INTERVAL_MS", 1000, 10, 60_000), Duration.millis),
  concurrency: between("PROVIDER_EVENTS_CONCURRENCY", 10, 1, 500),
  // Longer than handling one event takes (a provider round trip at most), so that a live worker never loses its lease.
  lease: Config.map(between("PROVIDER_EVENTS_LEASE_SECONDS", 60, 10, 3600), Duration.seconds)
})
