import { Context, type Effect } from "effect"
import type { UserId } from "../../Ids.js"

/**
 * What a newly completed mandate sets going: the user's billing invoices waiting for a mandate
 * (or whose payment was cancelled with an earlier one) get a payment on `mandateReference`.
 */
export class WaitingInvoices extends Context.Tag("core/WaitingInvoices")<
  WaitingInvoices,
  { readonly putForward: (userId: UserId, mandateReference: string) => Effect.Effect<void> }
>() {}
