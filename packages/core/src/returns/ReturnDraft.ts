import type { Contact, TaxTreatment } from "../contacts/Contact.js"
import type { ContactId } from "../Ids.js"
import { formatPounds } from "../Money.js"
import type { ReturnTotals } from "./MonthlyReturn.js"
import type { SubcontractorPayment } from "./SubcontractorPayments.js"
import { returnDueDate, verifyAgainSince } from "./TaxMonth.js"
import { verifiedTooLongAgo } from "./VerifyAgain.js"

/** A payment on a draft's line. Pence. */
export interface DraftPayment {
  readonly purchaseInvoice: string
  readonly invoiceNumber: string
  readonly payment: string
  readonly date: string
  readonly amount: number
  readonly grossAmount: number
  readonly materials: number
  readonly deducted: number
}

/** A subcontractor paid in the month: the sums of its payments' shares, and the contact as it is now. */
export interface DraftLine extends ReturnTotals {
  readonly contactId: ContactId
  readonly contactCode: string
  readonly name: string
  readonly utr: string | null
  readonly verificationNumber: string | null
  /** The contact's verified treatment now; null when it is not verified. */
  readonly taxTreatment: TaxTreatment | null
  /** Oldest first. */
  readonly payments: ReadonlyArray<DraftPayment>
}

export type DraftWarningCode = "VerifyAgain" | "MaterialsNotBelowGross" | "TreatmentChanged"

export interface DraftWarning {
  readonly contactCode: string
  readonly code: DraftWarningCode
  /** A sentence a person reads. */
  readonly message: string
}

/** A tax month's return as the tenant's payments to its CIS subcontractors draft it. */
export interface ReturnDraft {
  readonly periodEnd: string
  readonly dueDate: string
  readonly nilReturn: boolean
  readonly totals: ReturnTotals
  readonly lines: ReadonlyArray<DraftLine>
  readonly warnings: ReadonlyArray<DraftWarning>
}

const sumOf = (items: ReadonlyArray<ReturnTotals>): ReturnTotals =>
  items.reduce(
    (sum, item) => ({
      grossAmount: sum.grossAmount + item.grossAmount,
      materials: sum.materials + item.materials,
      deducted: sum.deducted + item.deducted
    }),
    { grossAmount: 0, materials: 0, deducted: 0 }
  )

const byNameThenCode = (a: DraftLine, b: DraftLine) =>
  a.name < b.name
    ? -1
    : a.name > b.name
      ? 1
      : a.contactCode < b.contactCode
        ? -1
        : a.contactCode > b.contactCode
          ? 1
          : 0

/**
 * The draft of the return ending `periodEnd` from the month's `payments` (by contact), the
 * `contacts` they were made to as they are now (by id), and those of them verified too long ago
 * that are on one of the tenant's accepted returns since (see VerifyAgain).
 */
export const draftReturn = (
  periodEnd: string,
  payments: ReadonlyArray<SubcontractorPayment>,
  contacts: ReadonlyMap<ContactId, Contact>,
  onAcceptedReturns: ReadonlySet<ContactId>
): ReturnDraft => {
  const byContact = new Map<ContactId, Array<SubcontractorPayment>>()
  for (const payment of payments) {
    const paid = byContact.get(payment.contactId)
    if (paid) paid.push(payment)
    else byContact.set(payment.contactId, [payment])
  }
  const warnings: Array<DraftWarning> = []
  const lines = [...byContact].flatMap(([contactId, paid]): Array<DraftLine> => {
    const contact = contacts.get(contactId)
    if (contact === undefined) return []
    const verified = contact.verification?.status === "Verified" ? contact.verification : null
    const ordered = [...paid].sort((a, b) =>
      a.date < b.date ? -1 : a.date > b.date ? 1 : a.paymentId < b.paymentId ? -1 : 1
    )
    return [
      {
        contactId,
        contactCode: contact.code,
        name: contact.name,
        utr: contact.cisDetails?.utr ?? null,
        verificationNumber: contact.verification?.verificationNumber ?? null,
        taxTreatment: verified?.taxTreatment ?? null,
        ...sumOf(ordered),
        payments: ordered.map((p) => ({
          purchaseInvoice: p.purchaseInvoiceId,
          invoiceNumber: p.invoiceNumber,
          payment: p.paymentId,
          date: p.date,
          amount: p.amount,
          grossAmount: p.grossAmount,
          materials: p.materials,
          deducted: p.deducted
        }))
      }
    ]
  })
  lines.sort(byNameThenCode)
  for (const line of lines) {
    const contact = contacts.get(line.contactId)!
    const warn = (code: DraftWarningCode, message: string) =>
      warnings.push({ contactCode: line.contactCode, code, message })
    if (verifiedTooLongAgo(contact, periodEnd) && !onAcceptedReturns.has(contact.id))
      warn(
        "VerifyAgain",
        `${line.contactCode} was last verified before ${verifyAgainSince(periodEnd)} and is on none of your accepted returns since: verify it with HMRC again before filing.`
      )
    if (line.materials >= line.grossAmount)
      warn(
        "MaterialsNotBelowGross",
        `${line.contactCode}'s materials (${formatPounds(line.materials)}) are not below its gross (${formatPounds(line.grossAmount)}): HMRC looks at such payments; check the bills.`
      )
    const paidAt = new Set(byContact.get(line.contactId)!.map((p) => p.taxTreatment))
    const changed = [...paidAt].filter((t) => t !== line.taxTreatment)
    if (changed.length > 0)
      warn(
        "TreatmentChanged",
        `${line.contactCode} is ${line.taxTreatment ?? "not verified"} now, but bills paid this month were worked at ${changed.join(" and ")}: check the deductions.`
      )
  }
  return {
    periodEnd,
    dueDate: returnDueDate(periodEnd),
    nilReturn: lines.length === 0,
    totals: sumOf(lines),
    lines,
    warnings
  }
}
