import { Context, type Effect, Schema } from "effect"
import type { SenderCredentials } from "../credentials/HmrcCredentials.js"
import type { Listed, SentMessage } from "./Acknowledgement.js"
import type { ReturnPoll, ReturnSent, ReturnSubmission } from "./ReturnSubmission.js"
import type { VerificationPoll, VerificationRequest, VerificationSent } from "./Verification.js"

/** The tax authority could not be reached or did not answer; the request is to be tried again later. */
export class TaxAuthorityUnavailable extends Schema.TaggedError<TaxAuthorityUnavailable>()("TaxAuthorityUnavailable", {
  message: Schema.String
}) {}

/**
 * The tax authority refused the credentials a message was sent with (GovTalk's authentication
 * failure, 1046): not an answer to the return or verification, which was not looked at, and which
 * is held until the tenant's credentials are replaced or its CIS scheme registration corrected,
 * then sent again.
 */
export class CredentialsRefused extends Schema.TaggedError<CredentialsRefused>()("CredentialsRefused", {
  message: Schema.String
}) {}

export type TaxAuthorityFailure = TaxAuthorityUnavailable | CredentialsRefused

/**
 * HMRC's CIS online service, or the sandbox that stands in for it. Workers call it outside any
 * transaction, for requests queued in the transaction of the change that asked for them.
 *
 * Returns and verifications go as GovTalk does it: sent, acknowledged with a correlation id and
 * the endpoint where the answer is to be polled for (recorded by the caller at once), polled there
 * no sooner than the interval the authority named, and the answer deleted there once the caller
 * recorded it. The authority keeps an answer until it is deleted: a caller that dies before
 * recording it polls again and gets the same answer. A poll the authority answers with a
 * correlation id it no longer knows leaves the outcome unknown: only then is its data request
 * asked what it holds (`lookUpReturn`, `lookUpVerification`), never before a first sending.
 *
 * Whatever is sent, and the data request, go with the tenant's own credentials; polls and deletes
 * name only the correlation id, as HMRC's do.
 */
export class TaxAuthority extends Context.Tag("core/TaxAuthority")<
  TaxAuthority,
  {
    /** Sends a return, identified by its id (GovTalk's TransactionID), with the tenant's credentials. */
    readonly sendReturn: (
      submission: ReturnSubmission,
      credentials: SenderCredentials
    ) => Effect.Effect<ReturnSent, TaxAuthorityFailure>
    /** Asks for the answer to a sent return at its endpoint (HMRC needs only the correlation id). */
    readonly pollReturn: (sent: SentMessage) => Effect.Effect<ReturnPoll, TaxAuthorityFailure>
    /**
     * What HMRC's data request says of a sent return whose poll found its correlation id unknown;
     * fails TaxAuthorityUnavailable when the authority could not be reached, after the
     * transport's own retries.
     */
    readonly lookUpReturn: (
      sent: SentMessage,
      credentials: SenderCredentials
    ) => Effect.Effect<Listed, TaxAuthorityUnavailable>
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
    /** Asks for the answer to a sent verification at its endpoint (see pollReturn). */
    readonly pollVerification: (sent: SentMessage) => Effect.Effect<VerificationPoll, TaxAuthorityFailure>
    /** What HMRC's data request says of a sent verification whose poll found it unknown (see lookUpReturn). */
    readonly lookUpVerification: (
      sent: SentMessage,
      credentials: SenderCredentials
    ) => Effect.Effect<Listed, TaxAuthorityUnavailable>
    /** Deletes a recorded verification's answer at its endpoint (see deleteReturnAnswer). */
    readonly deleteVerificationAnswer: (sent: SentMessage) => Effect.Effect<void, TaxAuthorityFailure>
  }
>() {}
