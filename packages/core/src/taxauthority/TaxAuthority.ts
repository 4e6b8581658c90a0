import { Context, type Effect, type Option, Schema } from "effect"
import type { SenderCredentials } from "../credentials/HmrcCredentials.js"
import type { Acknowledgement, SentMessage } from "./Acknowledgement.js"
import type { ReturnPoll, ReturnSent, ReturnSubmission, SentReturn } from "./ReturnSubmission.js"
import type { VerificationPoll, VerificationRequest, VerificationSent } from "./Verification.js"

/** The tax authority could not be reached or did not answer; the request is to be tried again later. */
export class TaxAuthorityUnavailable extends Schema.TaggedError<TaxAuthorityUnavailable>()("TaxAuthorityUnavailable", {
  message: Schema.String
}) {}

/**
 * The tax authority refused the credentials a message was sent with (GovTalk's authentication
 * failure, 1046): not an answer to the return or verification, which was not looked at, and which
 * is held until the tenant's credentials are replaced, then sent (or polled for) again.
 */
export class CredentialsRefused extends Schema.TaggedError<CredentialsRefused>()("CredentialsRefused", {
  message: Schema.String
}) {}

export type TaxAuthorityFailure = TaxAuthorityUnavailable | CredentialsRefused

/**
 * HMRC's CIS online service, or the sandbox that stands in for it. Workers call it outside any
 * transaction, for requests queued in the transaction of the change that asked for them.
 *
 * Returns and verifications go as GovTalk does it: sent once, acknowledged with a correlation id
 * and the endpoint where the answer is to be polled for (recorded by the caller at once), polled
 * there no sooner than the interval the authority named, and the answer deleted there once the
 * caller recorded it. A caller that may have sent a message before (its lease ran out before it
 * recorded the acknowledgement) first asks whether the authority already has it, so that a
 * message is sent once however often its sender dies. The authority keeps an answer until it is
 * deleted: a caller that dies before recording it polls again and gets the same answer.
 *
 * Whatever is sent goes with the tenant's own credentials; polls and deletes name only the
 * correlation id, as HMRC's do (a poll takes the credentials for a message the authority asks
 * to be sent again).
 */
export class TaxAuthority extends Context.Tag("core/TaxAuthority")<
  TaxAuthority,
  {
    /** Sends a return, identified by its id (GovTalk's TransactionID), with the tenant's credentials. */
    readonly sendReturn: (
      submission: ReturnSubmission,
      credentials: SenderCredentials
    ) => Effect.Effect<ReturnSent, TaxAuthorityFailure>
    /** The return as the authority holds it from an earlier sending (not one it failed), if it does. */
    readonly findSentReturn: (
      submission: ReturnSubmission,
      credentials: SenderCredentials
    ) => Effect.Effect<Option.Option<SentReturn>, TaxAuthorityFailure>
    /**
     * Asks for the answer to a sent return at its endpoint. HMRC needs only the correlation id;
     * the return and the credentials come along for it to be sent again when HMRC asks for that,
     * or no longer holds it.
     */
    readonly pollReturn: (
      sent: SentMessage,
      submission: ReturnSubmission,
      credentials: SenderCredentials
    ) => Effect.Effect<ReturnPoll, TaxAuthorityFailure>
    /**
     * Deletes the answer the authority holds under a return's correlation id (GovTalk's `delete`,
     * at the same endpoint), once it was recorded. One never deleted the authority drops in time.
     */
    readonly deleteReturnAnswer: (sent: SentMessage) => Effect.Effect<void, TaxAuthorityFailure>
    /** Sends a verification; `reference` names this request (GovTalk's TransactionID) and no other. */
    readonly sendVerification: (
      reference: string,
      request: VerificationRequest,
      credentials: SenderCredentials
    ) => Effect.Effect<VerificationSent, TaxAuthorityFailure>
    /** The verification as the authority holds it from an earlier sending under `reference`, if it does. */
    readonly findSentVerification: (
      reference: string,
      credentials: SenderCredentials
    ) => Effect.Effect<Option.Option<Acknowledgement>, TaxAuthorityFailure>
    /** Asks for the answer to a sent verification at its endpoint (see pollReturn). */
    readonly pollVerification: (
      sent: SentMessage,
      reference: string,
      request: VerificationRequest,
      credentials: SenderCredentials
    ) => Effect.Effect<VerificationPoll, TaxAuthorityFailure>
    /** Deletes a recorded verification's answer at its endpoint (see deleteReturnAnswer). */
    readonly deleteVerificationAnswer: (sent: SentMessage) => Effect.Effect<void, TaxAuthorityFailure>
  }
>() {}
