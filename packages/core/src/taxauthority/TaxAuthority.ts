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
 * authority already has it, so that a return is sent once however often its filer dies.
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
  }
>() {}
