import type { CisDetails } from "../cis/CisDetails.js"
import type { CisScheme } from "../cis/CisScheme.js"
import type { TaxTreatment } from "../contacts/Contact.js"
import type { ContactId, MonthlyReturnId } from "../Ids.js"
import type { Acknowledgement, NoAnswerYet } from "./Acknowledgement.js"

/** The contractor as a return names it to the tax authority. */
export interface SubmittedContractor {
  readonly name: string
  readonly utr: string | null
  /** The PAYE scheme the return is filed under; null on a return stored before schemes were registered. */
  readonly scheme: CisScheme | null
}

/** One subcontractor on a return, as the contact stood at submission. Money in pence. */
export interface SubmittedLine {
  readonly contactId: ContactId
  readonly contactCode: string
  readonly name: string
  readonly utr: string | null
  readonly verificationNumber: string | null
  readonly taxTreatment: TaxTreatment
  readonly grossAmount: number
  readonly materials: number
  readonly deducted: number
  /** The subcontractor's CIS identity as it stood, for the parts of the CIS300 beyond `name` and `utr`. */
  readonly cisDetails: CisDetails | null
  /** The ids of the payments the line was drafted from; none on a line the contractor typed. */
  readonly payments: ReadonlyArray<string>
}

/** What the contractor declared on the return, as it said it. */
export interface SubmittedDeclarations {
  readonly employmentStatus: boolean
  readonly subcontractorsVerified: boolean
  readonly informationCorrect: boolean
}

/**
 * A monthly return (CIS300) as the tax authority receives it: the tax authority's own shape,
 * which a monthly return of `returns/` fits as it is.
 */
export interface ReturnSubmission {
  readonly id: MonthlyReturnId
  /** The tax month, by its last day: YYYY-MM-05. */
  readonly periodEnd: string
  readonly contractor: SubmittedContractor
  readonly lines: ReadonlyArray<SubmittedLine>
  /** No subcontractors were paid in the month: the return has no lines. */
  readonly nilReturn: boolean
  /** With a nil return: the contractor expects to pay no subcontractors in the next six months. */
  readonly inactive: boolean
  readonly declarations: SubmittedDeclarations
}

/**
 * HMRC's receipt of an accepted return: its text, and the IRmark it names (in base64, as the
 * service writes IRmarks), null when it names none.
 */
export interface ReturnReceipt {
  readonly message: string
  readonly irmark: string | null
}

/** The tax authority's final answer to a return: accepted with its receipt, or rejected with every error's text. */
export type ReturnAnswer =
  | { readonly _tag: "Accepted"; readonly receipt: ReturnReceipt }
  | { readonly _tag: "Rejected"; readonly reason: string }

/**
 * A return the tax authority took: where it answers, the IRmark of what was sent (the receipt
 * keeps it), and whether it went as a test (GovTalk's GatewayTest: validated and answered, filed
 * nowhere).
 */
export interface SentReturn {
  readonly _tag: "Acknowledged"
  readonly acknowledgement: Acknowledgement
  readonly irmark: string
  readonly gatewayTest: boolean
}

/**
 * What sending a return came to: the tax authority took it and will answer under its
 * acknowledgement, or it was refused before it was taken (the document broke one of the
 * authority's rules).
 */
export type ReturnSent = SentReturn | { readonly _tag: "Rejected"; readonly reason: string }

/**
 * A poll of a sent return: its answer, or what stands in for one (see NoAnswerYet).
 */
export type ReturnPoll = ReturnAnswer | NoAnswerYet
