import type { PurchaseInvoice } from "@cisbook/core/invoices/PurchaseInvoice"
import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import { Effect, Layer, Option, Ref } from "effect"
import { newestIssuedFirst } from "./InvoiceOrder.js"
import { MemoryJournal } from "./MemoryJournal.js"

/** The purchase invoices in memory; a journal cell, so a failed transaction drops its changes. */
export class PurchaseInvoiceStore extends Effect.Service<PurchaseInvoiceStore>()("testkit/PurchaseInvoiceStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<ReadonlyArray<PurchaseInvoice>>([]))
}) {}

export const PurchaseInvoiceRepoMemory = Layer.effect(
  PurchaseInvoiceRepo,
  Effect.map(PurchaseInvoiceStore, (state) =>
    PurchaseInvoiceRepo.of({
      insert: (invoice) =>
        Ref.modify(state, (all) => {
          const taken = all.some(
            (i) => i.tenantId === invoice.tenantId && i.contactId === invoice.contactId && i.number === invoice.number
          )
          return taken ? ([false, all] as const) : ([true, [...all, invoice]] as const)
        }).pipe(
          Effect.flatMap((inserted) => (inserted ? Effect.void : Effect.fail(new DuplicateKey({ key: "number" }))))
        ),
      findById: (tenantId, id) =>
        Effect.map(Ref.get(state), (all) =>
          Option.fromNullable(all.find((i) => i.tenantId === tenantId && i.id === id))
        ),
      list: (tenantId, query) =>
        Effect.map(Ref.get(state), (all) => {
          const found = all.filter(
            (i) => i.tenantId === tenantId && (query.contactId === null || i.contactId === query.contactId)
          )
          const items = [...found].sort(newestIssuedFirst).slice(query.offset, query.offset + query.limit)
          return { items, totalCount: found.length }
        })
    })
  )
)
