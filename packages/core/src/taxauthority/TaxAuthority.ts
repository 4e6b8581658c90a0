import { Context, type Effect, type Option, Schema } from "effect"
import type { MonthlyReturnId } from "../Ids.js"
import type { ReturnPoll, ReturnSent, ReturnSubmission } from "./ReturnSubmission.js"
import type { VerificationAnswer, VerificationRequest } from "./Verification.js"

/** The tax authority could not be reached or did not answer; the request is to be tried again later. */
export class TaxAuthorityUnavailable extends Schema.TaggedError<TaxAuthorityUnavailable>()("TaxAuthorityUnavailable", {
  message: Schema.String
}) {}

/**
 * HMRC's CIS online service, or the sandbox that stands in for it. Workers call it outside any
 * transaction, for requests queued in the transaction of the change that asked for them.
 *
 * Returns go as GovTalk does it: sent once, acknowledged with a correlation id, and polled for the
 * answer. A filer that may have sent a return before (its lease ran out) first asks whether the
 * authority already has it, so that a return is sent once however often its filer dies. The
 * authority keeps a return's answer until it is deleted, which the filer does only once it has
 * recorded the answer: a filer that dies before that polls again and gets the same answer.
 */
export class TaxAuthority extends Context.Tag("core/TaxAuthority")<
  TaxAuthority,
  {
    readonly verify: (request: VerificationRequest) => Effect.Effect<VerificationAnswer, TaxAuthorityUnavailable>
    /** Sends a return, identified by its id (GovTalk's TransactionID). */
    readonly sendReturn: (submission: ReturnSubmission) => Effect.Effect<ReturnSent, TaxAuthorityUnavailable>
    /** The correlation id of a return sent before under this id, if the authority has one. */
    readonly findSentReturn: (id: MonthlyReturnId) => Effect.Effect<Option.Option<string>, TaxAuthorityUnavailable>
    /**
     * Asks for the answer to a sent return. HMRC needs only the correlation id; the return comes
     * along for an authority that answers from it (the sandbox, which keeps nothing across processes).
     */
    readonly pollReturn: (
      correlationId: string,
      submission: ReturnSubmission
    ) => Effect.Effect<ReturnPoll, TaxAuthorityUnavailable>
    /**
     * Deletes the answer the authority holds under a return's correlation id (GovTalk's `delete`),
     * once it was recorded. Deleting it again is harmless; one never deleted the authority drops in time.
     */
    readonly deleteReturnAnswer: (correlationId: string) => Effect.Effect<void, TaxAuthorityUnavailable>
  }
>() {}
