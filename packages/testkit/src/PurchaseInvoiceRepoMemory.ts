import type { PurchaseInvoice } from "@cisbook/core/invoices/PurchaseInvoice"
import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import { Effect, Layer, Ref } from "effect"
import { invoiceStoreMemory } from "./InvoiceStoreMemory.js"
import { MemoryJournal } from "./MemoryJournal.js"

/** The purchase invoices in memory; a journal cell, so a failed transaction drops its changes. */
export class PurchaseInvoiceStore extends Effect.Service<PurchaseInvoiceStore>()("testkit/PurchaseInvoiceStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<ReadonlyArray<PurchaseInvoice>>([]))
}) {}

export const PurchaseInvoiceRepoMemory = Layer.effect(
  PurchaseInvoiceRepo,
  Effect.map(PurchaseInvoiceStore, (state) =>
    PurchaseInvoiceRepo.of(
      invoiceStoreMemory(
        { get: Ref.get(state), modify: (f) => Ref.modify(state, f) },
        // A supplier's own number: another supplier may use it too.
        (a, b) => a.contactId === b.contactId && a.number === b.number
      )
    )
  )
)
