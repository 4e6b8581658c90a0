import { Context, type Effect, type Option } from "effect"
import type { CisScheme } from "../cis/CisScheme.js"
import type { ContactId, TenantId } from "../Ids.js"
import type { VerificationRequest } from "../taxauthority/Verification.js"
import type { Acknowledgement, SentMessage } from "../taxauthority/Acknowledgement.js"
import type { UnknownAnswer } from "../taxauthority/UnknownAnswer.js"

/** A contact's request to the tax authority, as queued in the transaction that asked for it. */
export interface QueuedVerification {
  readonly tenantId: TenantId
  readonly contactId: ContactId
  readonly contactCode: string
  /** The identities as they were when asked: what is sent. */
  readonly request: VerificationRequest
  readonly requestedAt: Date
}

/** Why a request is held: for the tenant's credentials (released when they change), or because HMRC's answer is unknown. */
export type HeldFor = "Credentials" | "UnknownAnswer"

/** A due request, leased to one worker. */
export interface ClaimedVerification extends QueuedVerification {
  /** Tries so far, this one included. */
  readonly attempts: number
  /** Identifies this lease; the request is settled only while the lease is still this one. */
  readonly leaseToken: string
  /**
   * Where the tax authority answers the request once it was sent and that was recorded, the
   * credentials it went with (null on one sent before they were recorded) and how long HMRC asked
   * to wait between polls; else null.
   */
  readonly sent: (SentMessage & { readonly credentialsSetAt: Date | null; readonly pollIntervalSeconds: number }) | null
  /** What HMRC's data request said when a poll last found the correlation id unknown, if it did. */
  readonly unknownAnswer: UnknownAnswer | null
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
    /**
     * Makes the request due again at `at`, ending its lease, if it is still under this lease,
     * keeping what was recorded of its sending (a failed try).
     */
    readonly postpone: (claimed: ClaimedVerification, at: Date, error: string) => Effect.Effect<void>
    /**
     * Forgets what was recorded of the request's sending and makes it due at `at`, to be sent
     * afresh, ending its lease, if it is still under this lease: HMRC failed that submission
     * (`failedAttempt`: a failed try), refused credentials since replaced, or recorded nothing of
     * it (`unknownAnswer` Resubmitted).
     */
    readonly sendAgain: (
      claimed: ClaimedVerification,
      at: Date,
      again: { readonly failedAttempt: boolean; readonly unknownAnswer?: UnknownAnswer }
    ) => Effect.Effect<void>
    /**
     * Holds the request if it is still under this lease, forgetting what was recorded of its
     * sending: it is due no more (however much time passes) until released (`releaseHeld` for
     * credentials; asked again, `queue`, for an unknown answer).
     */
    readonly hold: (claimed: ClaimedVerification, reason: string, heldFor: HeldFor) => Effect.Effect<boolean>
    /**
     * Makes every request of the tenant held for its credentials due at `at` (its attempts start
     * over), asking under `scheme` when given (the CIS scheme registration was corrected); the
     * requests released. Call it in the transaction that replaced the credentials or the scheme.
     */
    readonly releaseHeld: (
      tenantId: TenantId,
      at: Date,
      scheme?: CisScheme
    ) => Effect.Effect<ReadonlyArray<QueuedVerification>>
    /**
     * Records, right after sending, that the tax authority took the request (its correlation id,
     * response endpoint and poll interval, and the credentials it went with), keeping the lease;
     * false when it is not under this lease.
     */
    readonly recordSent: (
      claimed: ClaimedVerification,
      sent: Acknowledgement,
      credentialsSetAt: Date,
      at: Date
    ) => Effect.Effect<boolean>
    /**
     * Makes a sent request due again at `at` to be polled at `endpoint` from now on, ending its
     * lease, if it is still under this lease; a poll that is not answered yet is not a failed try
     * (its attempts stay as they were). With `unknownAnswer`, having found it through HMRC's data request.
     */
    readonly awaitAnswer: (
      claimed: ClaimedVerification,
      at: Date,
      endpoint: string | null,
      unknownAnswer?: UnknownAnswer
    ) => Effect.Effect<void>
    /** The contact's waiting request, if any. */
    readonly find: (tenantId: TenantId, contactId: ContactId) => Effect.Effect<Option.Option<QueuedVerification>>
  }
>() {}
