import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import { SubcontractorPayments } from "@cisbook/core/returns/SubcontractorPayments"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { type ContractIt, storedTenant } from "./Fixtures.js"
import { newPurchasePayment, storedContact, storedPurchaseInvoice } from "./InvoiceFixtures.js"

export const subcontractorPaymentsContract = (it: ContractIt) => {
  it.effect(
    "lists the tenant's payments of subcontractors' bills dated in the bounds, both included, by code, date and id",
    () =>
      Effect.gen(function* () {
        const repo = yield* PurchaseInvoiceRepo
        const payments = yield* SubcontractorPayments
        const tenant = yield* storedTenant
        const a = yield* storedContact(tenant)
        const b = yield* storedContact(tenant)
        const [first, second] = [a, b].sort((x, y) => (x.code < y.code ? -1 : 1)) as [typeof a, typeof b]
        const billA = yield* storedPurchaseInvoice(first, { taxTreatment: "Unmatched" })
        const billB = yield* storedPurchaseInvoice(second)
        const plain = yield* storedPurchaseInvoice(first, { taxTreatment: null, materials: 0, cisDeduction: 0 })
        const paid = (invoice: typeof billA, date: string, amount: number) =>
          Effect.tap(newPurchasePayment(invoice, { date, amount }), (p) => repo.addPayment(p))
        const b6 = yield* paid(billB, "2026-05-06", 1000)
        const a20 = yield* paid(billA, "2026-05-20", 2000)
        const a6 = yield* paid(billA, "2026-05-06", 3000)
        yield* paid(billA, "2026-05-05", 4000)
        yield* paid(billB, "2026-06-06", 5000)
        yield* paid(plain, "2026-05-10", 6000)
        const listed = yield* payments.between(tenant.id, "2026-05-06", "2026-06-05")
        expect(listed.map((p) => p.paymentId)).toEqual([a6.id, a20.id, b6.id])
        expect(listed[0]).toEqual({
          contactId: first.id,
          contactCode: first.code,
          purchaseInvoiceId: billA.id,
          invoiceNumber: billA.number,
          paymentId: a6.id,
          date: "2026-05-06",
          amount: 3000,
          grossAmount: a6.grossAmount,
          materials: a6.materials,
          deducted: a6.deducted,
          taxTreatment: "Unmatched"
        })
        const other = yield* storedTenant
        expect(yield* payments.between(other.id, "2026-01-01", "2026-12-31")).toEqual([])
      })
  )
}
