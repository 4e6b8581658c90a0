import type { Effect, Option } from "effect"
import type { TenantId } from "../Ids.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"
import type { InvoiceListQuery } from "./InvoiceQuery.js"

export interface InvoiceStorePage<Invoice> {
  readonly items: ReadonlyArray<Invoice>
  /** Every invoice that matches the query, on any page. */
  readonly totalCount: number
}

/** What the store of either side's invoices does (its port adds what only that side does). */
export interface InvoiceStore<Invoice, Id> {
  /** Fails with DuplicateKey "number" when the number is taken (each side says among which invoices). */
  readonly insert: (invoice: Invoice) => Effect.Effect<void, DuplicateKey>
  readonly findById: (tenantId: TenantId, id: Id) => Effect.Effect<Option.Option<Invoice>>
  /** Newest issue date first; ties newest created first. */
  readonly list: (tenantId: TenantId, query: InvoiceListQuery) => Effect.Effect<InvoiceStorePage<Invoice>>
}
