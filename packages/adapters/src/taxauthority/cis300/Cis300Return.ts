import { type CisScheme, taxOfficeNumber, taxOfficeReference } from "@cisbook/core/cis/CisScheme"
import { type HmrcPersonName, hmrcPersonName, hmrcTradingName } from "@cisbook/core/cis/HmrcNames"
import type { TaxTreatment } from "@cisbook/core/contacts/Contact"
import type { ReturnSubmission, SubmittedLine } from "@cisbook/core/taxauthority/ReturnSubmission"
import type { IrSender } from "../govtalk/IrHeader.js"

/**
 * The contractor's PAYE scheme as HMRC keys a CIS300: the employer reference (tax office number
 * and reference, `123/AB456`) and the Accounts Office reference (`AOref`).
 */
export interface PayeScheme {
  readonly taxOfficeNumber: string
  readonly taxOfficeReference: string
  readonly accountsOfficeReference: string
}

/** An individual's name on a return: HMRC's NameStructure. */
export type Cis300Name = HmrcPersonName

/** One subcontractor of a CIS300. Money in pence, as the return holds it; the document writes pounds. */
export interface Cis300Subcontractor {
  /** An individual's name, or else the trading name. */
  readonly name: Cis300Name | null
  readonly tradingName: string | null
  /**
   * The contractor's own reference for the subcontractor (HMRC keeps but does not use it): the
   * contact code, sent when it fits HMRC's 20 characters.
   */
  readonly worksRef: string
  /** Deducted at the higher rate: the verification found no match. */
  readonly unmatchedRate: boolean
  readonly utr: string | null
  readonly crn: string | null
  readonly nino: string | null
  readonly verificationNumber: string | null
  readonly taxTreatment: TaxTreatment
  readonly totalPayments: number
  readonly costOfMaterials: number
  readonly totalDeducted: number
  /**
   * Not part of HMRC's document: the figures are the sum of the month's payments' shares, each
   * bill's deduction rounded down and each share half up, which the rate ceiling of a typed
   * line does not bind (contract: "the typed lines' rules hold except the rate ceiling").
   */
  readonly drafted: boolean
}

export interface Cis300Declarations {
  /** None of the subcontractors is paid under a contract of employment. */
  readonly employmentStatus: boolean
  /** Every subcontractor was verified, or was on a return in this or the last two tax years. */
  readonly verification: boolean
  readonly informationCorrect: boolean
}

/** A CIS300 monthly return as HMRC's CISreturn body holds it. */
export interface Cis300Return {
  /** GovTalk's TransactionID: the return's id as 32 hex digits, so that HMRC can be asked about it again. */
  readonly transactionId: string
  /** YYYY-MM-05. */
  readonly periodEnd: string
  readonly scheme: PayeScheme
  readonly contractorUtr: string | null
  /** GovTalk's `Sender`: in what capacity the return is sent. */
  readonly sender: IrSender
  /** A return saying no subcontractors were paid: it has none. */
  readonly nilReturn: boolean
  /** With a nil return: the contractor expects to pay no subcontractors in the next six months. */
  readonly inactive: boolean
  readonly subcontractors: ReadonlyArray<Cis300Subcontractor>
  readonly declarations: Cis300Declarations
}

/** The employer reference (`123/AB456`) as GovTalk's keys, with the Accounts Office reference. */
export const payeScheme = (scheme: CisScheme): PayeScheme => ({
  taxOfficeNumber: taxOfficeNumber(scheme.employerReference),
  taxOfficeReference: taxOfficeReference(scheme.employerReference),
  accountsOfficeReference: scheme.accountsOfficeReference
})

/** GovTalk TransactionIDs are up to 32 hex digits: a uuid without its dashes. */
export const transactionIdOf = (returnId: string): string => returnId.replaceAll("-", "").toUpperCase()

/** HMRC writes an unmatched verification number without the slash of its letters (V1234567890A). */
const schemaVerificationNumber = (number: string | null) => number?.replace("/", "") ?? null

/**
 * One line as HMRC's return holds it, names in HMRC's forms: a sole trader by name (else by
 * trading name); a partnership, as HMRC's own return builder files it, by the firm's trading name
 * and UTR (with the nominated partner's NINO); anyone else by trading name.
 */
const subcontractorOf = (line: SubmittedLine): Cis300Subcontractor => {
  const details = line.cisDetails
  const name = details?.type === "SoleTrader" ? hmrcPersonName(details) : null
  return {
    name,
    tradingName: name ? null : hmrcTradingName(details?.tradingName ?? line.name),
    worksRef: line.contactCode,
    unmatchedRate: line.taxTreatment === "Unmatched",
    utr: line.utr,
    crn: details?.companyNumber ?? null,
    nino: details?.niNumber ?? null,
    // Only an unmatched subcontractor's number goes on the return.
    verificationNumber: line.taxTreatment === "Unmatched" ? schemaVerificationNumber(line.verificationNumber) : null,
    taxTreatment: line.taxTreatment,
    totalPayments: line.grossAmount,
    costOfMaterials: line.materials,
    totalDeducted: line.deducted,
    drafted: line.payments.length > 0
  }
}

/**
 * The CIS300 of a submission, with the declarations the contractor made when it filed (core
 * files none it did not make).
 */
export const cis300Return = (
  submission: ReturnSubmission,
  scheme: PayeScheme,
  sender: Cis300Return["sender"] = "Company"
): Cis300Return => ({
  transactionId: transactionIdOf(submission.id),
  periodEnd: submission.periodEnd,
  scheme,
  contractorUtr: submission.contractor.utr,
  sender,
  nilReturn: submission.nilReturn,
  inactive: submission.nilReturn && submission.inactive,
  subcontractors: submission.lines.map(subcontractorOf),
  declarations: {
    employmentStatus: submission.declarations.employmentStatus,
    verification: submission.declarations.subcontractorsVerified,
    informationCorrect: submission.declarations.informationCorrect
  }
})
