import { Config, type ConfigError, Duration, Effect, Layer } from "effect"
import type { LeasedWorkerOptions } from "./LeasedWorker.js"
import { wholeNumberBetween as between } from "./WholeNumberConfig.js"

/** A whole-number setting's default, and the least and the most it may be. */
export type Bounds = readonly [fallback: number, min: number, max: number]

export interface LeasedWorkerSettings {
  /** The setting that turns the worker off ("WEBHOOK_DISPATCHER"); it is on unless it says false. */
  readonly switch: string
  readonly concurrency: Bounds
  /** Longer than an attempt can take, so that a live worker never loses its lease. */
  readonly leaseSeconds: Bounds
  /** [1000, 10, 60000] unless said otherwise. */
  readonly pollIntervalMs?: Bounds
}

/**
 * A worker's switch and its `${prefix}_CONCURRENCY`, `${prefix}_POLL_INTERVAL_MS` and
 * `${prefix}_LEASE_SECONDS`, each a whole number within its bounds.
 */
export const leasedWorkerConfig = (
  prefix: string,
  settings: LeasedWorkerSettings
): Config.Config<LeasedWorkerOptions & { readonly enabled: boolean }> => {
  const [pollFallback, pollMin, pollMax] = settings.pollIntervalMs ?? [1000, 10, 60_000]
  return Config.all({
    enabled: Config.withDefault(Config.boolean(settings.switch), true),
    pollInterval: Config.map(between(`${prefix}_POLL_INTERVAL_MS`, pollFallback, pollMin, pollMax), Duration.millis),
    concurrency: between(`${prefix}_CONCURRENCY`, ...settings.concurrency),
    lease: Config.map(between(`${prefix}_LEASE_SECONDS`, ...settings.leaseSeconds), Duration.seconds)
  })
}

/** The worker `worker` makes with the options `config` reads, unless its switch turns it off. */
export const leasedWorkerLive = <E, R>(
  config: Config.Config<LeasedWorkerOptions & { readonly enabled: boolean }>,
  worker: (options: LeasedWorkerOptions) => Layer.Layer<never, E, R>
): Layer.Layer<never, E | ConfigError.ConfigError, R> =>
  Layer.unwrapEffect(Effect.map(config, ({ enabled, ...options }) => (enabled ? worker(options) : Layer.empty)))
