import { Context, type Effect } from "effect"
import type { InvoiceDocument } from "../billing/invoicing/InvoiceDocument.js"
import type { CisStatement } from "../returns/CisStatement.js"

/** Renders the service's documents as PDF files a person can read and print. */
export class DocumentRenderer extends Context.Tag("core/DocumentRenderer")<
  DocumentRenderer,
  {
    readonly cisStatement: (statement: CisStatement) => Effect.Effect<Uint8Array>
    /** The service's VAT invoice to one of its users. */
    readonly billingInvoice: (document: InvoiceDocument) => Effect.Effect<Uint8Array>
  }
>() {}
