import { Context, type Effect, Schema } from "effect"
import type { ReturnAnswer, ReturnSubmission } from "../taxauthority/ReturnSubmission.js"
import type { VerificationAnswer, VerificationRequest } from "../taxauthority/Verification.js"

/** The tax authority could not be reached or did not answer; the request is to be tried again later. */
export class TaxAuthorityUnavailable extends Schema.TaggedError<TaxAuthorityUnavailable>()("TaxAuthorityUnavailable", {
  message: Schema.String
}) {}

/**
 * HMRC's CIS online service, or the sandbox that stands in for it. Workers call it outside any
 * transaction, for requests queued in the transaction of the change that asked for them.
 */
export class TaxAuthority extends Context.Tag("core/TaxAuthority")<
  TaxAuthority,
  {
    readonly verify: (request: VerificationRequest) => Effect.Effect<VerificationAnswer, TaxAuthorityUnavailable>
    readonly submitReturn: (submission: ReturnSubmission) => Effect.Effect<ReturnAnswer, TaxAuthorityUnavailable>
  }
>() {}
