import { Context, type Effect } from "effect"
import type { InvoiceDocument } from "./InvoiceDocument.js"

/** Renders the service's VAT invoice to one of its users as a PDF file a person can read and print. */
export class BillingInvoiceRenderer extends Context.Tag("core/BillingInvoiceRenderer")<
  BillingInvoiceRenderer,
  { readonly billingInvoice: (document: InvoiceDocument) => Effect.Effect<Uint8Array> }
>() {}
