import type { CisDetails } from "../cis/CisDetails.js"
import type { CisScheme } from "../cis/CisScheme.js"
import type { TaxTreatment } from "../contacts/Contact.js"
import type { Acknowledgement, NoAnswerYet } from "./Acknowledgement.js"

/**
 * A request to verify a subcontractor: who asks (the contractor's UTR and the PAYE scheme it
 * verifies under) and whom.
 */
export interface VerificationRequest {
  readonly contractor: { readonly utr: string | null; readonly scheme: CisScheme }
  readonly subcontractor: CisDetails
}

/** The tax authority's answer: matched (or unmatched) with a verification number, or refused. */
export type VerificationAnswer =
  | { readonly _tag: "Matched"; readonly verificationNumber: string; readonly taxTreatment: TaxTreatment }
  | { readonly _tag: "Refused"; readonly message: string }

/** What sending a verification came to: taken, to be polled for under the acknowledgement; or answered at once. */
export type VerificationSent =
  { readonly _tag: "Acknowledged"; readonly acknowledgement: Acknowledgement } | VerificationAnswer

/** A poll of a sent verification: its answer, or what stands in for one (see NoAnswerYet). */
export type VerificationPoll = VerificationAnswer | NoAnswerYet
