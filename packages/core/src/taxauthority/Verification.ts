import type { CisDetails } from "../cis/CisDetails.js"
import type { TaxTreatment } from "../contacts/Contact.js"

/** A request to verify a subcontractor: who asks (the contractor's own identity) and whom. */
export interface VerificationRequest {
  readonly contractor: CisDetails | null
  readonly subcontractor: CisDetails
}

/** The tax authority's answer: matched (or unmatched) with a verification number, or refused. */
export type VerificationAnswer =
  | { readonly _tag: "Matched"; readonly verificationNumber: string; readonly taxTreatment: TaxTreatment }
  | { readonly _tag: "Refused"; readonly message: string }
