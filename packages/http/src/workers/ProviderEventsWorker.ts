import { ProviderEvents } from "@cisbook/core/usecases/ProviderEvents"
import { Duration, Effect, Layer } from "effect"
import { runLeasedWorker } from "./LeasedWorker.js"
import { ProviderEventsWorkerConfig, type ProviderEventsWorkerOptions } from "./ProviderEventsWorkerConfig.js"

/**
 * The provider events worker: a leased worker over the inbox of GoCardless's events (see
 * LeasedWorker). Each event is settled in the transaction of its effects, so an event in flight
 * when the worker dies is handled again by another, and one settled is never handled twice.
 */
export const providerEventsWorker = (options: ProviderEventsWorkerOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const events = yield* ProviderEvents
      yield* Effect.logInfo(
        `Provider events worker started: up to ${options.concurrency} events at once, polling every ${Duration.format(options.pollInterval)}`
      )
      yield* runLeasedWorker(
        {
          name: "provider events",
          claim: (limit) => events.claim(limit, options.lease),
          // A defect leaves the event to its lease (it is tried again), and is said.
          attempt: (claimed) =>
            events
              .attempt(claimed)
              .pipe(
                Effect.tapDefect((cause) =>
                  Effect.logError("Could not handle a provider event", cause).pipe(
                    Effect.annotateLogs({ event: claimed.event.id })
                  )
                )
              ),
          record: events.record
        },
        options
      )
    })
  )

/** The worker as PROVIDER_EVENTS_WORKER, ..._POLL_INTERVAL_MS, ..._CONCURRENCY and ..._LEASE_SECONDS say. */
export const ProviderEventsWorkerLive = Layer.unwrapEffect(
  Effect.map(ProviderEventsWorkerConfig, ({ enabled, ...options }) =>
    enabled ? providerEventsWorker(options) : Layer.empty
  )
)
