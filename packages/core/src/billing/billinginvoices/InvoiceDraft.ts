import type { BillingInvoiceId, UserId } from "../../Ids.js"
import { formatDate } from "../../mail/MailFormat.js"
import { BillingInvoice, BillingInvoiceLine, invoiceNumber } from "./BillingInvoice.js"

/** The VAT rate on the service's invoices, in percent. */
export const VAT_PERCENT = 20

/** 20 % of an amount in pence, rounded half up to the penny. */
export const vatOf = (subtotal: number): number => Math.floor((subtotal * VAT_PERCENT + 50) / 100)

/** What a line says: `CIS return, tax month ending 5 June 2026 (Lovelace Builders Ltd)`. */
export const lineDescription = (tenantName: string, periodEnd: string): string =>
  `CIS return, tax month ending ${formatDate(periodEnd)} (${tenantName})`

/** An accepted return claimed for an invoice, with what is charged for it. */
export interface ClaimedUsage {
  readonly returnId: BillingInvoiceLine["returnId"]
  readonly tenantId: BillingInvoiceLine["tenantId"]
  readonly tenant: string
  readonly tenantName: string
  readonly periodEnd: string
  /** Subcontractors on the return. */
  readonly subcontractors: number
}

/** An invoice before the store numbers it. Money in pence. */
export interface InvoiceDraft {
  readonly id: BillingInvoiceId
  readonly userId: UserId
  readonly issueDate: string
  readonly periodStart: string
  readonly periodEnd: string
  readonly subtotal: number
  readonly vat: number
  readonly total: number
  readonly lines: ReadonlyArray<BillingInvoiceLine>
}

const byPeriodThenTenant = (a: ClaimedUsage, b: ClaimedUsage) =>
  a.periodEnd.localeCompare(b.periodEnd) || a.tenant.localeCompare(b.tenant) || a.returnId.localeCompare(b.returnId)

/**
 * The invoice of a user's claimed returns: one line per return (quantity = its subcontractors,
 * at `unitPrice` pence each), oldest tax month first; VAT on the subtotal; the period its returns span.
 * `usage` must not be empty.
 */
export const draftInvoice = (
  head: { readonly id: BillingInvoiceId; readonly userId: UserId; readonly issueDate: string },
  usage: ReadonlyArray<ClaimedUsage>,
  unitPrice: number
): InvoiceDraft => {
  const sorted = [...usage].sort(byPeriodThenTenant)
  const lines = sorted.map(
    (u) =>
      new BillingInvoiceLine({
        description: lineDescription(u.tenantName, u.periodEnd),
        tenantId: u.tenantId,
        tenant: u.tenant,
        returnId: u.returnId,
        quantity: u.subcontractors,
        unitPrice,
        amount: u.subcontractors * unitPrice
      })
  )
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0)
  const vat = vatOf(subtotal)
  return {
    ...head,
    periodStart: sorted[0]?.periodEnd ?? head.issueDate,
    periodEnd: sorted[sorted.length - 1]?.periodEnd ?? head.issueDate,
    subtotal,
    vat,
    total: subtotal + vat,
    lines
  }
}

/** The invoice a stored draft becomes as the `sequence`-th of the service: unfinished, waiting for a mandate. */
export const numberedInvoice = (draft: InvoiceDraft, sequence: number): BillingInvoice =>
  new BillingInvoice({
    id: draft.id,
    userId: draft.userId,
    number: invoiceNumber(sequence),
    issueDate: draft.issueDate,
    periodStart: draft.periodStart,
    periodEnd: draft.periodEnd,
    currency: "GBP",
    subtotal: draft.subtotal,
    vat: draft.vat,
    total: draft.total,
    paymentStatus: "WaitingForMandate",
    paymentReference: null,
    mandateReference: null,
    hasPdf: false,
    finished: false,
    failedAt: null,
    paymentRetries: 0,
    paymentReadAt: null
  })
