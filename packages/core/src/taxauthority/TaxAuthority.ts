import { Context, type Effect, type Option, Schema } from "effect"
import type { SenderCredentials } from "../credentials/HmrcCredentials.js"
import type { MonthlyReturnId } from "../Ids.js"
import type { ReturnPoll, ReturnSent, ReturnSubmission } from "./ReturnSubmission.js"
import type { VerificationAnswer, VerificationRequest } from "./Verification.js"

/** The tax authority could not be reached or did not answer; the request is to be tried again later. */
export class TaxAuthorityUnavailable extends Schema.TaggedError<TaxAuthorityUnavailable>()("TaxAuthorityUnavailable", {
  message: Schema.String
}) {}

/**
 * The tax authority refused the credentials a message was sent with (GovTalk's authentication
 * failure): not an answer to the message, which is to be sent again with other credentials.
 */
export class CredentialsRefused extends Schema.TaggedError<CredentialsRefused>()("CredentialsRefused", {
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
 *
 * Whatever is sent goes with the tenant's own credentials; polls and deletes name only the
 * correlation id, as HMRC's do.
 */
export class TaxAuthority extends Context.Tag("core/TaxAuthority")<
  TaxAuthority,
  {
    readonly verify: (
      request: VerificationRequest,
      credentials: SenderCredentials
    ) => Effect.Effect<VerificationAnswer, TaxAuthorityUnavailable | CredentialsRefused>
    /** Sends a return, identified by its id (GovTalk's TransactionID). */
    readonly sendReturn: (
      submission: ReturnSubmission,
      credentials: SenderCredentials
    ) => Effect.Effect<ReturnSent, TaxAuthorityUnavailable | CredentialsRefused>
    /** The correlation id of a return sent before under this id, if the authority has one. */
    readonly findSentReturn: (
      id: MonthlyReturnId,
      credentials: SenderCredentials
    ) => Effect.Effect<Option.Option<string>, TaxAuthorityUnavailable | CredentialsRefused>
    /**
     * Asks for the answer to a sent return. HMRC needs only the correlation id; the return comes
     * along for an authority that answers from it (the sandbox, which keeps nothing across processes),
     * and so do the credentials, for a return the authority asks to be sent again.
     */
    readonly pollReturn: (
      correlationId: string,
      submission: ReturnSubmission,
      credentials: SenderCredentials
    ) => Effect.Effect<ReturnPoll, TaxAuthorityUnavailable | CredentialsRefused>
    /**
     * Deletes the answer the authority holds under a return's correlation id (GovTalk's `delete`),
     * once it was recorded. Deleting it again is harmless; one never deleted the authority drops in time.
     */
    readonly deleteReturnAnswer: (correlationId: string) => Effect.Effect<void, TaxAuthorityUnavailable>
  }
>() {}
