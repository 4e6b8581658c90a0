import { Context, type Effect, type Option } from "effect"
import type { PurchaseInvoiceId, TenantId } from "../Ids.js"
import type { InvoiceStore } from "./InvoiceStore.js"
import type { PurchaseInvoice, PurchaseInvoicePayment } from "./PurchaseInvoice.js"

/**
 * The tenant's purchase invoices and their payments: a number is taken when the same supplier
 * already has an invoice with it.
 */
export class PurchaseInvoiceRepo extends Context.Tag("core/PurchaseInvoiceRepo")<
  PurchaseInvoiceRepo,
  InvoiceStore<PurchaseInvoice, PurchaseInvoiceId> & {
    /** Inside a transaction: findById, and no one else changes or pays the invoice until it ends. */
    readonly findByIdForUpdate: (
      tenantId: TenantId,
      id: PurchaseInvoiceId
    ) => Effect.Effect<Option.Option<PurchaseInvoice>>
    /** The invoice's payments in the order they were recorded. */
    readonly payments: (
      tenantId: TenantId,
      invoiceId: PurchaseInvoiceId
    ) => Effect.Effect<ReadonlyArray<PurchaseInvoicePayment>>
    /** Records the payment and adds its amount to its invoice's amount paid. */
    readonly addPayment: (payment: PurchaseInvoicePayment) => Effect.Effect<void>
  }
>() {}
