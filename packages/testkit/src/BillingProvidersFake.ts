import { Layer } from "effect"
import { DirectDebitFake } from "./DirectDebitFake.js"
import { WaitingInvoicesRecording } from "./WaitingInvoicesRecording.js"

/** The direct debit provider and the waiting-invoices hook in memory, for compositions over the SQL ports. */
export const BillingProvidersFake = Layer.merge(DirectDebitFake, WaitingInvoicesRecording)
