import { Effect, Schema } from "effect"
import type { TenantId } from "../Ids.js"
import type { ContactPayment } from "../invoices/SalesInvoice.js"
import type { SalesInvoiceRepo } from "../invoices/SalesInvoiceRepo.js"
import { taxMonthStart } from "../returns/TaxMonth.js"
import type { ReceivedStatement } from "./ReceivedStatement.js"

/** Matched: the statement's deduction is what the tenant's own payments carry; Different: it is not; NoPayments: none to compare. */
export const ReconciliationStatus = Schema.Literal("Matched", "Different", "NoPayments")
export type ReconciliationStatus = typeof ReconciliationStatus.Type

/**
 * A received statement set beside the receiving tenant's own books: its sales-invoice payments
 * from the contractor dated in the statement's tax month. Money in pence.
 */
export interface Reconciliation {
  /** How many payments. */
  readonly payments: number
  /** The sum of their CIS deduction shares (as the payments report gives them). */
  readonly deducted: number
  /** The statement's deduction less that sum: below 0 when the statement says less was deducted. */
  readonly difference: number
  readonly status: ReconciliationStatus
}

/** The reconciliation of a statement that says `deducted` with the payments it covers. */
export const reconcile = (
  deducted: number,
  payments: ReadonlyArray<{ readonly cisDeduction: number }>
): Reconciliation => {
  const booked = payments.reduce((sum, payment) => sum + payment.cisDeduction, 0)
  const difference = deducted - booked
  return {
    payments: payments.length,
    deducted: booked,
    difference,
    status: payments.length === 0 ? "NoPayments" : difference === 0 ? "Matched" : "Different"
  }
}

/** A received statement with its reconciliation, worked out when it was read. */
export interface ReconciledStatement {
  readonly statement: ReceivedStatement
  readonly reconciliation: Reconciliation
}

/**
 * The tenant's statements, each with its reconciliation against the tenant's sales-invoice
 * payments from the statement's contact dated in its tax month, as they are now (one query for
 * them all).
 */
export const reconciled = (
  invoices: SalesInvoiceRepo["Type"],
  tenantId: TenantId,
  statements: ReadonlyArray<ReceivedStatement>
): Effect.Effect<ReadonlyArray<ReconciledStatement>> =>
  Effect.gen(function* () {
    if (statements.length === 0) return []
    const starts = statements.map((s) => taxMonthStart(s.periodEnd))
    const ends = statements.map((s) => s.periodEnd)
    const from = starts.reduce((a, b) => (a < b ? a : b))
    const to = ends.reduce((a, b) => (a > b ? a : b))
    const contactIds = [...new Set(statements.map((s) => s.contact.id))]
    const byContact = new Map<string, Array<ContactPayment>>()
    for (const found of yield* invoices.paymentsFromContacts(tenantId, contactIds, from, to))
      byContact.set(found.contactId, [...(byContact.get(found.contactId) ?? []), found])
    return statements.map((statement, i) => {
      const inMonth = (byContact.get(statement.contact.id) ?? [])
        .map((found) => found.payment)
        .filter((payment) => payment.date >= starts[i]! && payment.date <= statement.periodEnd)
      return { statement, reconciliation: reconcile(statement.deducted, inMonth) }
    })
  })
