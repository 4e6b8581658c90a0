import type { CisDetails } from "../cis/CisDetails.js"
import type { CisScheme } from "../cis/CisScheme.js"
import type { TaxTreatment } from "../contacts/Contact.js"

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
