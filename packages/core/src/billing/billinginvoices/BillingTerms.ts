import { Context } from "effect"

/** The service as the seller on its own invoices. */
export interface Seller {
  readonly name: string
  /** Lines of the postal address. */
  readonly address: ReadonlyArray<string>
  readonly vatNumber: string
}

/** What the service charges and who it is on its invoices (BILLING_* settings). */
export class BillingTerms extends Context.Tag("core/BillingTerms")<
  BillingTerms,
  {
    /** Per subcontractor on an accepted return, in pence. */
    readonly pricePerSubcontractor: number
    readonly seller: Seller
  }
>() {}
