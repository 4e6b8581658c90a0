import { Context, type Effect, type Option } from "effect"
import type { ContactId, MonthlyReturnId, TenantId } from "../Ids.js"
import type { CisScheme } from "../cis/CisScheme.js"
import type { HeldFor, HmrcReceipt, MonthlyReturn } from "./MonthlyReturn.js"
import type { SentMessage } from "../taxauthority/Acknowledgement.js"
import type { UnknownAnswer } from "../taxauthority/UnknownAnswer.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"

/** A sent return as recorded right after its acknowledgement. */
export interface RecordedSending {
  readonly correlationId: string
  readonly endpoint: string
  readonly pollIntervalSeconds: number
  readonly irmark: string
  /** When the credentials it was sent with were set (they identify them): HMRC's refusal is of these. */
  readonly credentialsSetAt: Date
  /** Sent as a test (GatewayTest): answered, filed nowhere. */
  readonly gatewayTest: boolean
}

/**
 * A return that counts for its tax month's obligation: Submitted, Held or Accepted, and not sent
 * as a test. `filedAt` is when it was put to the tax authority for the last time (see filedAt);
 * `deducted` its total deducted, in pence.
 */
export interface MonthFiling {
  readonly id: MonthlyReturnId
  readonly periodEnd: string
  readonly status: "Submitted" | "Held" | "Accepted"
  readonly nilReturn: boolean
  readonly inactive: boolean
  readonly filedAt: Date
  readonly deducted: number
}

/** A return waiting for the tax authority, leased to one filer. */
export interface ClaimedReturn {
  readonly monthlyReturn: MonthlyReturn
  /** Submissions tried so far (that ran into an unavailable tax authority), this one not counted. */
  readonly attempts: number
  /** Identifies this lease; an outcome is recorded only while the lease is still this one. */
  readonly leaseToken: string
  /**
   * Where the tax authority answers the return once it was sent and that was recorded, the
   * IRmark sent, the credentials it went with (null on a return sent before they were recorded),
   * how long HMRC asked to wait between polls, and whether it went as a test; else null.
   */
  readonly sent:
    | (SentMessage & {
        readonly irmark: string | null
        readonly credentialsSetAt: Date | null
        readonly pollIntervalSeconds: number
        readonly gatewayTest: boolean
      })
    | null
  /** What HMRC's data request said when a poll last found the correlation id unknown, if it did. */
  readonly unknownAnswer: UnknownAnswer | null
}

/** What a filer learnt of a submission. */
export type ReturnOutcome =
  /** Accepted with HMRC's receipt; `gatewayTest`: sent as a test, filed nowhere. */
  | { readonly _tag: "Accepted"; readonly at: Date; readonly receipt: HmrcReceipt; readonly gatewayTest: boolean }
  | { readonly _tag: "Rejected"; readonly reason: string }
  /** The tax authority did not answer: try again at `nextAttemptAt`, keeping what was recorded of the sending. */
  | { readonly _tag: "Retry"; readonly nextAttemptAt: Date }
  /**
   * The tax authority has the return but no answer yet: poll again at `nextAttemptAt` (not a
   * failed attempt), at `endpoint` from now on (the one its last acknowledgement named); with
   * `unknownAnswer`, having found it through HMRC's data request.
   */
  | {
      readonly _tag: "Pending"
      readonly nextAttemptAt: Date
      readonly endpoint: string | null
      readonly unknownAnswer?: UnknownAnswer
    }
  /**
   * What was sent is to be forgotten and the return sent afresh at `nextAttemptAt`: HMRC failed
   * that submission, refused credentials since replaced, or holds nothing of it (`unknownAnswer`
   * Resubmitted). `failedAttempt` counts it as a failed attempt (its delay grows).
   */
  | {
      readonly _tag: "SendAgain"
      readonly nextAttemptAt: Date
      readonly failedAttempt: boolean
      readonly unknownAnswer?: UnknownAnswer
    }
  /** Held (see HeldFor), forgetting what was sent: released, it is sent afresh. */
  | { readonly _tag: "Held"; readonly heldFor: HeldFor; readonly reason: string }

/**
 * Monthly returns. A `Submitted` return is its own outbox entry: inserted in the transaction that
 * files it, due at once, and worked through by the filers until the tax authority answers.
 */
export class MonthlyReturnRepo extends Context.Tag("core/MonthlyReturnRepo")<
  MonthlyReturnRepo,
  {
    /** DuplicateKey "period" when the tenant already has a Submitted, Held or Accepted return for the period. */
    readonly insert: (monthlyReturn: MonthlyReturn) => Effect.Effect<void, DuplicateKey>
    readonly find: (tenantId: TenantId, id: MonthlyReturnId) => Effect.Effect<Option.Option<MonthlyReturn>>
    /** The tenant's Submitted, Held or Accepted return for the period (YYYY-MM-05), if any. */
    readonly filedFor: (tenantId: TenantId, periodEnd: string) => Effect.Effect<Option.Option<MonthlyReturn>>
    /**
     * Inside a transaction: waits until no other transaction holds the tenant's tax month ending
     * `periodEnd`, then holds it until this one ends. Filing a return for the month and paying a
     * subcontractor in it both hold it, so that one sees what the other did: no payment lands in
     * a month whose return is being filed without it.
     */
    readonly holdTaxMonth: (tenantId: TenantId, periodEnd: string) => Effect.Effect<void>
    /** Latest periodEnd first, then latest submitted first. */
    readonly list: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<MonthlyReturn>>
    /**
     * Those of `contactIds` on a line of one of the tenant's Accepted returns for a tax month
     * ending on `from` (YYYY-MM-05) or later: whether HMRC still knows them (see VerifyAgain).
     */
    readonly onAcceptedReturnsSince: (
      tenantId: TenantId,
      from: string,
      contactIds: ReadonlyArray<ContactId>
    ) => Effect.Effect<ReadonlySet<ContactId>>
    /** The tenant's returns that count for the tax months ending from `from` to `to` (both included), oldest first. */
    readonly filings: (tenantId: TenantId, from: string, to: string) => Effect.Effect<ReadonlyArray<MonthFiling>>
    /**
     * Leases up to `limit` Submitted returns due at `now` (of every tenant) until `leaseUntil`,
     * earliest due first; each to one caller however many claim at once. A lease that runs out
     * unrecorded makes the return due again.
     */
    readonly claimDue: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<ClaimedReturn>>
    /**
     * Records the outcome and ends the lease; false (and nothing changed) when the lease was
     * taken over. Call it in the transaction that also does what the outcome brings.
     */
    readonly record: (claimed: ClaimedReturn, outcome: ReturnOutcome) => Effect.Effect<boolean>
    /**
     * Records, right after sending, that the tax authority took the return (its correlation id,
     * response endpoint, poll interval, the IRmark sent, the credentials it went with, whether as
     * a test) at `at`, keeping the lease; false (and nothing changed) when the lease was taken over.
     */
    readonly recordSent: (claimed: ClaimedReturn, sent: RecordedSending, at: Date) => Effect.Effect<boolean>
    /**
     * Makes every return of the tenant Held for its credentials Submitted again, due at `at` (its
     * attempts start over), to go under `scheme` when given (the CIS scheme registration was
     * corrected); the returns released. Call it in the transaction that replaced the credentials
     * or the scheme.
     */
    readonly releaseHeld: (
      tenantId: TenantId,
      at: Date,
      scheme?: CisScheme
    ) => Effect.Effect<ReadonlyArray<MonthlyReturn>>
    /**
     * Makes the return, Held because HMRC's answer was unknown, Submitted again, due at `at`, to
     * be sent afresh; false (nothing changed) when it is not so held.
     */
    readonly release: (tenantId: TenantId, id: MonthlyReturnId, at: Date) => Effect.Effect<boolean>
  }
>() {}
