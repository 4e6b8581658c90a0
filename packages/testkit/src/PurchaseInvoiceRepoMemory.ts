import type { PurchaseInvoiceId } from "@cisbook/core/Ids"
import { PurchaseInvoice, type PurchaseInvoicePayment } from "@cisbook/core/invoices/PurchaseInvoice"
import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import { Effect, Layer, Ref } from "effect"
import { invoiceStoreMemory } from "./InvoiceStoreMemory.js"
import { MemoryJournal } from "./MemoryJournal.js"

interface State {
  readonly invoices: ReadonlyArray<PurchaseInvoice>
  /** Oldest recorded first. */
  readonly payments: ReadonlyArray<PurchaseInvoicePayment>
}

/** The purchase invoices and their payments in memory; a journal cell, so a failed transaction drops its changes. */
export class PurchaseInvoiceStore extends Effect.Service<PurchaseInvoiceStore>()("testkit/PurchaseInvoiceStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<State>({ invoices: [], payments: [] }))
}) {}

export const PurchaseInvoiceRepoMemory = Layer.effect(
  PurchaseInvoiceRepo,
  Effect.map(PurchaseInvoiceStore, (state) => {
    const store = invoiceStoreMemory<PurchaseInvoice, PurchaseInvoiceId>(
      {
        get: Effect.map(Ref.get(state), (s) => s.invoices),
        modify: (f) =>
          Ref.modify(state, (s) => {
            const [answer, invoices] = f(s.invoices)
            return [answer, { ...s, invoices }] as const
          })
      },
      // A supplier's own number: another supplier may use it too.
      (a, b) => a.contactId === b.contactId && a.number === b.number
    )
    return PurchaseInvoiceRepo.of({
      ...store,
      // One fiber at a time runs here and nothing is shared between processes: there is nothing to lock.
      findByIdForUpdate: store.findById,
      payments: (tenantId, invoiceId) =>
        Effect.map(Ref.get(state), (s) =>
          s.payments.filter((p) => p.tenantId === tenantId && p.invoiceId === invoiceId)
        ),
      addPayment: (payment) =>
        Ref.update(state, (s) => ({
          ...s,
          payments: [...s.payments, payment],
          invoices: s.invoices.map((i) =>
            i.tenantId === payment.tenantId && i.id === payment.invoiceId
              ? new PurchaseInvoice({ ...i, amountPaid: i.amountPaid + payment.amount })
              : i
          )
        }))
    })
  })
)
