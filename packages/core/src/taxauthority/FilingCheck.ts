import { Context, type Effect } from "effect"
import type { ReturnSubmission } from "./ReturnSubmission.js"
import type { VerificationRequest } from "./Verification.js"

/** One thing HMRC's schema would refuse in a document the service is about to send. */
export interface FilingProblem {
  /** The line of a return it is in (0-based), or null for the document as a whole (and for a verification). */
  readonly line: number | null
  /** The element of HMRC's form it refuses (`Sur`, `Fore`, `TradingName`, `UTR` ...), when known. */
  readonly element: string | null
  readonly message: string
}

/**
 * Checks what the service sends to the tax authority against the authority's published schemas
 * (HMRC's `CISreturn-v1-2.xsd`, `CISverification-v1-2.xsd` and `core-v2-0.xsd`) before it is
 * queued, so that a document HMRC would refuse is refused to the user at once, naming what is
 * wrong, rather than failing at HMRC later. Each answers every problem; none when it would pass.
 */
export class FilingCheck extends Context.Tag("core/FilingCheck")<
  FilingCheck,
  {
    /** The return as it would be sent: one check for the whole document, problems by line. */
    readonly checkReturn: (submission: ReturnSubmission) => Effect.Effect<ReadonlyArray<FilingProblem>>
    /** The verification request as it would be sent. */
    readonly checkVerification: (request: VerificationRequest) => Effect.Effect<ReadonlyArray<FilingProblem>>
  }
>() {}
