import type { InvoiceMembers } from "@cisbook/core/invoices/Invoice"
import type { InvoiceStore } from "@cisbook/core/invoices/InvoiceStore"
import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { Effect, Option } from "effect"
import { newestIssuedFirst } from "./InvoiceOrder.js"

/** A side's invoices in a memory cell: reading them, and changing them with an answer. */
export interface InvoiceCell<Invoice> {
  readonly get: Effect.Effect<ReadonlyArray<Invoice>>
  readonly modify: <B>(f: (all: ReadonlyArray<Invoice>) => readonly [B, ReadonlyArray<Invoice>]) => Effect.Effect<B>
}

/** The store of one side's invoices in memory; `sameNumber` says when an invoice's number is taken. */
export const invoiceStoreMemory = <Invoice extends InvoiceMembers<Id>, Id extends string>(
  cell: InvoiceCell<Invoice>,
  sameNumber: (a: Invoice, b: Invoice) => boolean
): InvoiceStore<Invoice, Id> => ({
  insert: (invoice) =>
    cell
      .modify((all) => {
        const taken = all.some((i) => i.tenantId === invoice.tenantId && sameNumber(i, invoice))
        return taken ? ([false, all] as const) : ([true, [...all, invoice]] as const)
      })
      .pipe(Effect.flatMap((inserted) => (inserted ? Effect.void : Effect.fail(new DuplicateKey({ key: "number" }))))),
  findById: (tenantId, id) =>
    Effect.map(cell.get, (all) => Option.fromNullable(all.find((i) => i.tenantId === tenantId && i.id === id))),
  list: (tenantId, query) =>
    Effect.map(cell.get, (all) => {
      const found = all.filter(
        (i) => i.tenantId === tenantId && (query.contactId === null || i.contactId === query.contactId)
      )
      const items = [...found].sort(newestIssuedFirst).slice(query.offset, query.offset + query.limit)
      return { items, totalCount: found.length }
    })
})
