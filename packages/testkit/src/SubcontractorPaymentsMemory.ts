import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { SubcontractorPayments } from "@cisbook/core/returns/SubcontractorPayments"
import { Effect, Layer, Option, Ref } from "effect"
import { PurchaseInvoiceStore } from "./PurchaseInvoiceRepoMemory.js"

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The payments of CIS subcontractors' bills the memory purchase invoices hold. */
export const SubcontractorPaymentsMemory = Layer.effect(
  SubcontractorPayments,
  Effect.gen(function* () {
    const state = yield* PurchaseInvoiceStore
    const contacts = yield* ContactRepo
    return SubcontractorPayments.of({
      between: (tenantId, from, to) =>
        Effect.gen(function* () {
          const s = yield* Ref.get(state)
          const bills = new Map(
            s.invoices.filter((i) => i.tenantId === tenantId && i.isCisBill).map((i) => [i.id, i] as const)
          )
          const found = yield* Effect.forEach(
            s.payments.filter((p) => p.tenantId === tenantId && p.date >= from && p.date <= to),
            (payment) =>
              Effect.gen(function* () {
                const bill = bills.get(payment.invoiceId)
                if (bill === undefined) return []
                // The code as the contact has it now, as the SQL adapter joins it.
                const contact = Option.getOrThrow(yield* contacts.findByCode(tenantId, bill.contactCode))
                return [
                  {
                    contactId: bill.contactId,
                    contactCode: contact.code,
                    purchaseInvoiceId: bill.id,
                    invoiceNumber: bill.number,
                    paymentId: payment.id,
                    date: payment.date,
                    amount: payment.amount,
                    grossAmount: payment.grossAmount,
                    materials: payment.materials,
                    deducted: payment.deducted,
                    taxTreatment: bill.taxTreatment!
                  }
                ]
              })
          )
          return found
            .flat()
            .sort(
              (a, b) => order(a.contactCode, b.contactCode) || order(a.date, b.date) || order(a.paymentId, b.paymentId)
            )
        })
    })
  })
)
