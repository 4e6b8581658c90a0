import { Context } from "effect"
import type { PurchaseInvoiceId } from "../Ids.js"
import type { InvoiceStore } from "./InvoiceStore.js"
import type { PurchaseInvoice } from "./PurchaseInvoice.js"

/** The tenant's purchase invoices: a number is taken when the same supplier already has an invoice with it. */
export class PurchaseInvoiceRepo extends Context.Tag("core/PurchaseInvoiceRepo")<
  PurchaseInvoiceRepo,
  InvoiceStore<PurchaseInvoice, PurchaseInvoiceId>
>() {}
