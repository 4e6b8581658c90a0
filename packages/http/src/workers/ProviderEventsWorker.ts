import { ProviderEventHandling } from "@cisbook/core/billing/providerevents/ProviderEventHandling"
import { Effect } from "effect"
import { leasedWorker } from "./LeasedWorker.js"
import { leasedWorkerConfig, leasedWorkerLive } from "./LeasedWorkerConfig.js"

/** PROVIDER_EVENTS_WORKER (on unless false) and its settings. */
export const ProviderEventsWorkerConfig = leasedWorkerConfig("PROVIDER_EVENTS", {
  switch: "PROVIDER_EVENTS_WORKER",
  concurrency: [10, 1, 500],
  // Handling one event takes a provider round trip at most.
  leaseSeconds: [60, 10, 3600]
})

/** The use case, with a defect of an attempt said (the event is left to its lease and tried again). */
const sayingDefects = Effect.map(ProviderEventHandling, (events) => ({
  ...events,
  attempt: (claimed: Parameters<typeof events.attempt>[0]) =>
    events
      .attempt(claimed)
      .pipe(
        Effect.tapDefect((cause) =>
          Effect.logError("Could not handle a provider event", cause).pipe(
            Effect.annotateLogs({ event: claimed.event.id })
          )
        )
      )
}))

/**
 * The provider events worker: a leased worker over the inbox of GoCardless's events (see
 * LeasedWorker). Each event is settled in the transaction of its effects, so an event in flight
 * when the worker dies is handled again by another, and one settled is never handled twice.
 */
export const providerEventsWorker = leasedWorker(sayingDefects, {
  worker: "Provider events worker",
  items: "events",
  work: "provider events",
  // Postponed (the provider unavailable) or given up (a refusal that waiting cannot change).
  failed: (done) => done._tag === "Postponed" || (done._tag === "Settled" && done.gaveUp !== undefined)
})

export const ProviderEventsWorkerLive = leasedWorkerLive(ProviderEventsWorkerConfig, providerEventsWorker)
