import { Context, type Effect, type Option } from "effect"
import type { ContactId, TenantId } from "../Ids.js"
import type { VerificationRequest } from "../taxauthority/Verification.js"
import type { Acknowledgement, SentMessage } from "../taxauthority/Acknowledgement.js"

/** A contact's request to the tax authority, as queued in the transaction that asked for it. */
export interface QueuedVerification {
  readonly tenantId: TenantId
  readonly contactId: ContactId
  readonly contactCode: string
  /** The identities as they were when asked: what is sent. */
  readonly request: VerificationRequest
  readonly requestedAt: Date
}

/** A due request, leased to one worker. */
export interface ClaimedVerification extends QueuedVerification {
  /** Tries so far, this one included. */
  readonly attempts: number
  /** Identifies this lease; the request is settled only while the lease is still this one. */
  readonly leaseToken: string
  /** Where the tax authority answers the request once it was sent and that was recorded; else null. */
  readonly sent: SentMessage | null
}

/** The request's own name at the tax authority (GovTalk's TransactionID): the contact's, and when it was asked. */
export const verificationReference = (v: QueuedVerification) => `${v.contactId}/${v.requestedAt.getTime()}`

/**
 * The outbox of verification requests: one waiting request per contact, worked through by the
 * verification workers (at least once: a lease that runs out unsettled makes the request due
 * again). A request whose contact is gone is dropped when it is settled.
 */
export class VerificationQueue extends Context.Tag("core/VerificationQueue")<
  VerificationQueue,
  {
    /** Queues the request, due at once; it replaces one the contact has waiting (and any lease on it). */
    readonly queue: (verification: QueuedVerification) => Effect.Effect<void>
    /**
     * Leases up to `limit` requests due at `now` (of every tenant) until `leaseUntil`, earliest
     * due first; each is leased to one caller however many claim at once.
     */
    readonly claimDue: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<ClaimedVerification>>
    /** Removes the request if it is still under this lease; false when it is not (replaced, deleted, or taken over). */
    readonly complete: (claimed: ClaimedVerification) => Effect.Effect<boolean>
    /** Makes the request due again at `at`, ending its lease, if it is still under this lease. */
    readonly postpone: (claimed: ClaimedVerification, at: Date, error: string) => Effect.Effect<void>
    /**
     * Holds the request if it is still under this lease: it is due no more (however much time
     * passes) until `releaseHeld`, keeping what was recorded of its sending. For a request the
     * tenant's refused credentials cannot send (or poll for).
     */
    readonly hold: (claimed: ClaimedVerification, reason: string) => Effect.Effect<boolean>
    /**
     * Makes every held request of the tenant due at `at` (its attempts start over); the requests
     * released. Call it in the transaction that replaced the credentials.
     */
    readonly releaseHeld: (tenantId: TenantId, at: Date) => Effect.Effect<ReadonlyArray<QueuedVerification>>
    /**
     * Records, right after sending, that the tax authority took the request (its correlation id,
     * response endpoint and poll interval), keeping the lease; false when it is not under this lease.
     */
    readonly recordSent: (claimed: ClaimedVerification, sent: Acknowledgement, at: Date) => Effect.Effect<boolean>
    /**
     * Makes a sent request due again at `at` to be polled, ending its lease, if it is still under
     * this lease; a poll that is not answered yet is not a failed try (its attempts stay as they were).
     */
    readonly awaitAnswer: (claimed: ClaimedVerification, at: Date) => Effect.Effect<void>
    /** The contact's waiting request, if any. */
    readonly find: (tenantId: TenantId, contactId: ContactId) => Effect.Effect<Option.Option<QueuedVerification>>
  }
>() {}
