import { Context, type Effect, type Option } from "effect"
import type { MonthlyReturnId, TenantId } from "../Ids.js"
import type { HmrcReceipt, MonthlyReturn } from "./MonthlyReturn.js"
import type { SentMessage } from "../taxauthority/Acknowledgement.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"

/** A return waiting for the tax authority, leased to one filer. */
export interface ClaimedReturn {
  readonly monthlyReturn: MonthlyReturn
  /** Submissions tried so far (that ran into an unavailable tax authority), this one not counted. */
  readonly attempts: number
  /** Identifies this lease; an outcome is recorded only while the lease is still this one. */
  readonly leaseToken: string
  /** Where the tax authority answers the return once it was sent and that was recorded, and the IRmark sent; else null. */
  readonly sent: (SentMessage & { readonly irmark: string | null }) | null
}

/** A sent return as recorded right after its acknowledgement. */
export interface RecordedSending {
  readonly correlationId: string
  readonly endpoint: string
  readonly pollIntervalSeconds: number
  readonly irmark: string
}

/** What a filer learnt of a submission. */
export type ReturnOutcome =
  | { readonly _tag: "Accepted"; readonly at: Date; readonly receipt: HmrcReceipt }
  | { readonly _tag: "Rejected"; readonly reason: string }
  /** The tax authority did not answer: try again at `nextAttemptAt`. */
  | { readonly _tag: "Retry"; readonly nextAttemptAt: Date }
  /** The tax authority has the return but no answer yet: poll again at `nextAttemptAt` (not a failed attempt). */
  | { readonly _tag: "Pending"; readonly nextAttemptAt: Date }
  /** Not sent: the tenant's credentials were refused (or are gone); due again only once they are replaced. */
  | { readonly _tag: "Held"; readonly reason: string }

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
    /** Latest periodEnd first, then latest submitted first. */
    readonly list: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<MonthlyReturn>>
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
     * response endpoint, poll interval and the IRmark sent) at `at`, keeping the lease; false (and
     * nothing changed) when the lease was taken over.
     */
    readonly recordSent: (claimed: ClaimedReturn, sent: RecordedSending, at: Date) => Effect.Effect<boolean>
    /**
     * Makes every Held return of the tenant Submitted again, due at `at` (its attempts start
     * over); the returns released. Call it in the transaction that replaced the credentials.
     */
    readonly releaseHeld: (tenantId: TenantId, at: Date) => Effect.Effect<ReadonlyArray<MonthlyReturn>>
  }
>() {}
