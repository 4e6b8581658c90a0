import { Context, type Effect } from "effect"
import type { Email } from "../Email.js"
import type { MailId, TenantId } from "../Ids.js"
import type { MailProgress } from "./MailSchedule.js"
import type { MailSummary, OutgoingMail } from "./OutgoingMail.js"
import type { MailStatus } from "./TenantMail.js"

/** A due mail, leased to one sender. */
export interface ClaimedMail {
  readonly mail: OutgoingMail
  /** Attempts made before this one. */
  readonly attempts: number
  /** Identifies this lease; an outcome is recorded only while the lease is still this one. */
  readonly leaseToken: string
}

/** The outcome of an attempt made under a lease. */
export interface RecordedMailAttempt {
  readonly mail: Pick<OutgoingMail, "tenantId" | "id">
  readonly leaseToken: string
  readonly progress: MailProgress
}

/** A mail the SMTP server took: to whom, and when. */
export interface SentMail {
  readonly id: MailId
  readonly to: Email
  readonly sentAt: Date
}

export interface MailQuery {
  readonly status: MailStatus | null
  readonly limit: number
}

/**
 * The mail outbox. A mail is added in the transaction of the change that causes it; senders
 * lease due mail (any number at once, each mail to one of them), send it, and record how it went.
 */
export class MailOutbox extends Context.Tag("core/MailOutbox")<
  MailOutbox,
  {
    /** Queues a mail, due at once. */
    readonly add: (mail: OutgoingMail) => Effect.Effect<void>
    /**
     * Leases up to `limit` Queued mails due at `now` (of every tenant) until `leaseUntil`,
     * earliest due first. A lease that runs out unrecorded makes the mail due again.
     */
    readonly claimDue: (now: Date, leaseUntil: Date, limit: number) => Effect.Effect<ReadonlyArray<ClaimedMail>>
    /** Records outcomes and ends their leases; an outcome whose lease was taken over is dropped. */
    readonly record: (attempts: ReadonlyArray<RecordedMailAttempt>) => Effect.Effect<void>
    /** Those of the tenant's mails `ids` that were handed to the SMTP server (Sent), in no particular order. */
    readonly sentOf: (tenantId: TenantId, ids: ReadonlyArray<MailId>) => Effect.Effect<ReadonlyArray<SentMail>>
    /** Newest first, of every tenant: for support staff. */
    readonly list: (query: MailQuery) => Effect.Effect<ReadonlyArray<MailSummary>>
    /**
     * Queues a Failed mail again, due at `at`, with a fresh set of attempts. False when there is
     * no such mail or it is not Failed.
     */
    readonly retry: (id: MailId, at: Date) => Effect.Effect<boolean>
  }
>() {}
