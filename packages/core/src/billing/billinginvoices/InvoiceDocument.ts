import type { BillingAddress } from "../mandates/BillingAddress.js"
import type { BillingInvoice, BillingInvoiceLine } from "./BillingInvoice.js"
import type { Seller } from "./BillingTerms.js"

/** Everything the invoice PDF shows. */
export interface InvoiceDocument {
  readonly seller: Seller
  readonly invoice: BillingInvoice
  readonly lines: ReadonlyArray<BillingInvoiceLine>
  /** The buyer: their billing address, or their name and email when they never set one. */
  readonly buyer: BillingAddress | { readonly name: string; readonly email: string | null }
  /** The mandate the invoice is collected on; null while it waits for one. */
  readonly mandateReference: string | null
}
