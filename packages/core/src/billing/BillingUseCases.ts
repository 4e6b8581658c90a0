import { Layer } from "effect"
import { WaitingInvoicesLive } from "./WaitingInvoicesLive.js"
import { BillingInvoices } from "./BillingInvoices.js"
import { BillingRun } from "./BillingRun.js"

/**
 * The billing run and the caller's invoices, and the completed mandate's put-forward of waiting
 * invoices, over the billing invoice store (kept apart from UseCasesLive: only SQL implements that store).
 */
export const BillingUseCasesLive = Layer.mergeAll(BillingInvoices.Default, BillingRun.Default, WaitingInvoicesLive)
