import { Verification } from "../contacts/Contact.js"
import type { VerificationAnswer } from "./Verification.js"

/** What a contact shows while its request waits for the tax authority. */
export const verificationRequested = new Verification({
  status: "NotVerified",
  verificationNumber: null,
  taxTreatment: null,
  verifiedAt: null,
  source: "Hmrc",
  message: "Verification requested"
})

/**
 * What a verification ends as when the contractor has no CIS scheme registration to ask under
 * (one started by taking the subcontractor on, which must not fail for it).
 */
export const schemeNeededVerification = new Verification({
  status: "Error",
  verificationNumber: null,
  taxTreatment: null,
  verifiedAt: null,
  source: "Hmrc",
  message:
    "HMRC verifies subcontractors under the contractor's CIS scheme: set the contractor's CIS scheme registration (employer PAYE reference and Accounts Office reference), then verify the subcontractor again."
})

/** The message of a verification asked for while the contractor's own UTR is not set. */
export const UTR_NEEDED_MESSAGE =
  "HMRC's verification request carries the contractor's own UTR: set it in the tenant's CIS details, then verify the subcontractor again."

/** What a verification ends as when it cannot be sent: the contractor's UTR missing, or a request HMRC's schema refuses. */
export const unsendableVerification = (message: string) =>
  new Verification({
    status: "Error",
    verificationNumber: null,
    taxTreatment: null,
    verifiedAt: null,
    source: "Hmrc",
    message
  })

/** The tax authority's answer as the contact's verification: it replaces whatever was there. */
export const answeredVerification = (answer: VerificationAnswer, at: Date): Verification =>
  answer._tag === "Matched"
    ? new Verification({
        status: "Verified",
        verificationNumber: answer.verificationNumber,
        taxTreatment: answer.taxTreatment,
        verifiedAt: at,
        source: "Hmrc",
        message: null
      })
    : new Verification({
        status: "Error",
        verificationNumber: null,
        taxTreatment: null,
        verifiedAt: null,
        source: "Hmrc",
        message: answer.message
      })
