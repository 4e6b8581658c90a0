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
