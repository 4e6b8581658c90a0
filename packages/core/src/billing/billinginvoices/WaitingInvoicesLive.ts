import { Effect, Layer } from "effect"
import { BillingInvoiceRepo } from "./BillingInvoiceRepo.js"
import { DirectDebit } from "../mandates/DirectDebit.js"
import { WaitingInvoices } from "../mandates/WaitingInvoices.js"
import { collect } from "./Collect.js"

/**
 * A completed mandate collects what its user owes: every finished invoice waiting for a mandate,
 * or whose payment was cancelled with an earlier one, gets a payment on the new mandate. The key
 * names the invoice and the mandate, so a second put-forward on the same mandate makes no second payment.
 */
export const WaitingInvoicesLive = Layer.effect(
  WaitingInvoices,
  Effect.gen(function* () {
    const repo = yield* BillingInvoiceRepo
    const provider = yield* DirectDebit
    return WaitingInvoices.of({
      putForward: (userId, mandateReference) =>
        repo.waitingForCollection(userId).pipe(
          Effect.flatMap((invoices) =>
            Effect.forEach(
              invoices,
              (invoice) =>
                collect(provider, invoice, mandateReference, `${invoice.id}:${mandateReference}`).pipe(
                  Effect.flatMap((collection) => repo.recordPutForward(userId, invoice.id, collection)),
                  Effect.catchTag("DirectDebitRefused", (refused) =>
                    Effect.logWarning("The direct debit provider refused a payment; the invoice keeps waiting").pipe(
                      Effect.annotateLogs({ invoice: invoice.number, reason: refused.message })
                    )
                  )
                ),
              { discard: true }
            )
          ),
          Effect.withSpan("WaitingInvoices.putForward")
        )
    })
  })
)
