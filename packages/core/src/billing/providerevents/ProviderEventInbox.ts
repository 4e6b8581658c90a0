import { Context, type Effect } from "effect"
import type { ProviderEvent, ProviderEventBatch, ProviderEventOutcome, ProviderEventSummary } from "./ProviderEvent.js"

/** A pending event, leased to one worker. */
export interface ClaimedProviderEvent {
  readonly event: ProviderEvent
  /** Attempts made before this one. */
  readonly attempts: number
  /** Identifies this lease; an outcome is recorded only while the lease is still this one. */
  readonly leaseToken: string
}

/** An attempt that could not settle its event (the provider did not answer): due again at `retryAt`. */
export interface PostponedProviderEvent {
  readonly id: string
  readonly leaseToken: string
  readonly retryAt: Date
}

/**
 * The inbox of the direct debit provider's events. The receiving request adds them (one row per
 * event id, however often the provider sends it); workers lease pending ones (each to one of
 * them), handle each, and settle it in the transaction of its effects.
 */
export class ProviderEventInbox extends Context.Tag("core/ProviderEventInbox")<
  ProviderEventInbox,
  {
    /** Stores the events not stored before, pending, in one statement; how many were new. */
    readonly add: (batch: ProviderEventBatch, receivedAt: Date) => Effect.Effect<number>
    /**
     * Leases up to `limit` pending events due at `now` until `leaseUntil`, oldest event first.
     * A lease that runs out unsettled makes the event due again.
     */
    readonly claimDue: (
      now: Date,
      leaseUntil: Date,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ClaimedProviderEvent>>
    /**
     * Settles a leased event; false (and nothing written) when its lease was taken over, so that
     * the caller's transaction can be undone. Call it in the transaction of the event's effects.
     */
    readonly settle: (id: string, leaseToken: string, outcome: ProviderEventOutcome, at: Date) => Effect.Effect<boolean>
    /** Ends the leases of events to try again later, with one more attempt counted. */
    readonly postpone: (postponed: ReadonlyArray<PostponedProviderEvent>) => Effect.Effect<void>
    /** The newest `limit` received, newest first: for support staff. */
    readonly list: (limit: number) => Effect.Effect<ReadonlyArray<ProviderEventSummary>>
  }
>() {}
