import { Context, type Effect } from "effect"
import type { TaxTreatment } from "../contacts/Contact.js"
import type { ContactId, TenantId } from "../Ids.js"

/**
 * A payment the tenant made towards a CIS subcontractor's bill, with the shares of the bill's
 * gross, materials and deduction it carries (pence), and the treatment the bill was worked at.
 * The shape a return's draft needs of the invoices, which keep them (purchase invoices).
 */
export interface SubcontractorPayment {
  readonly contactId: ContactId
  readonly contactCode: string
  readonly purchaseInvoiceId: string
  readonly invoiceNumber: string
  readonly paymentId: string
  readonly date: string
  readonly amount: number
  readonly grossAmount: number
  readonly materials: number
  readonly deducted: number
  readonly taxTreatment: TaxTreatment
}

/** The payments a contractor tenant made to its CIS subcontractors, as its returns are drafted from them. */
export class SubcontractorPayments extends Context.Tag("core/SubcontractorPayments")<
  SubcontractorPayments,
  {
    /**
     * The tenant's payments of CIS subcontractors' bills dated from `from` to `to` (YYYY-MM-DD),
     * both included: by contact code, then date, then payment id.
     */
    readonly between: (
      tenantId: TenantId,
      from: string,
      to: string
    ) => Effect.Effect<ReadonlyArray<SubcontractorPayment>>
  }
>() {}
