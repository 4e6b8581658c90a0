import { Context, type Effect, type Option } from "effect"
import type { PurchaseInvoiceId, TenantId } from "../Ids.js"
import type { InvoiceListQuery } from "./InvoiceQuery.js"
import type { PurchaseInvoice } from "./PurchaseInvoice.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"

export interface PurchaseInvoicePage {
  readonly items: ReadonlyArray<PurchaseInvoice>
  /** Every invoice that matches the query, on any page. */
  readonly totalCount: number
}

export class PurchaseInvoiceRepo extends Context.Tag("core/PurchaseInvoiceRepo")<
  PurchaseInvoiceRepo,
  {
    /** Fails with DuplicateKey "number" when the same supplier already has an invoice with that number. */
    readonly insert: (invoice: PurchaseInvoice) => Effect.Effect<void, DuplicateKey>
    readonly findById: (tenantId: TenantId, id: PurchaseInvoiceId) => Effect.Effect<Option.Option<PurchaseInvoice>>
    /** Newest issue date first; ties newest created first. */
    readonly list: (tenantId: TenantId, query: InvoiceListQuery) => Effect.Effect<PurchaseInvoicePage>
  }
>() {}
