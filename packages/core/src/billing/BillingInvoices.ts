import { Context, Duration, Effect, Option } from "effect"
import { BillingInvoice, type BillingInvoiceWithLines } from "./BillingInvoice.js"
import type { BillingUsage } from "./BillingUsage.js"
import { invoicePaymentStatusOf, refreshedOnListing } from "./InvoicePaymentStatus.js"
import { NotFound } from "../Errors.js"
import { BillingInvoiceId, isUuid } from "../Ids.js"
import { BillingInvoiceRepo } from "./BillingInvoiceRepo.js"
import { DirectDebit } from "./DirectDebit.js"
import type { User } from "../users/User.js"

/** How long a listing waits for the provider's answer about one payment before answering what it knows. */
export class PaymentRefreshTimeout extends Context.Reference<PaymentRefreshTimeout>()("core/PaymentRefreshTimeout", {
  defaultValue: () => Duration.seconds(3)
}) {}

const REFRESH_CONCURRENCY = 8

const notFound = new NotFound({ detail: "You have no billing invoice with this id." })

/** The calling user's usage not invoiced yet, and the service's invoices to them. */
export class BillingInvoices extends Effect.Service<BillingInvoices>()("core/BillingInvoices", {
  effect: Effect.gen(function* () {
    const repo = yield* BillingInvoiceRepo
    const provider = yield* DirectDebit

    /** The invoice with its payment as the provider has it now; as stored when the provider fails or is slow. */
    const refreshed = (invoice: BillingInvoice): Effect.Effect<BillingInvoice> => {
      const reference = invoice.paymentReference
      if (reference === null || !refreshedOnListing(invoice.paymentStatus)) return Effect.succeed(invoice)
      return Effect.gen(function* () {
        const timeout = yield* PaymentRefreshTimeout
        const payment = yield* provider.getPayment(reference).pipe(Effect.timeout(timeout))
        const paymentStatus = invoicePaymentStatusOf(payment.status)
        if (paymentStatus === invoice.paymentStatus) return invoice
        const collection = { paymentStatus, paymentReference: reference, mandateReference: invoice.mandateReference }
        yield* repo.recordCollection(invoice.userId, invoice.id, collection, false)
        return new BillingInvoice({ ...invoice, paymentStatus })
      }).pipe(
        Effect.catchAll((error) =>
          Effect.logWarning("Could not refresh a billing invoice's payment; answering its last known status").pipe(
            Effect.annotateLogs({
              invoice: invoice.number,
              payment: reference,
              reason: error._tag === "TimeoutException" ? "the provider did not answer in time" : error.message
            }),
            Effect.as(invoice)
          )
        )
      )
    }

    const usage = (user: User): Effect.Effect<ReadonlyArray<BillingUsage>> =>
      repo.usage(user.id).pipe(Effect.withSpan("BillingInvoices.usage"))

    /** The caller's invoices, latest first, Pending and Failed ones refreshed from the provider. */
    const list = (user: User): Effect.Effect<ReadonlyArray<BillingInvoice>> =>
      repo.list(user.id).pipe(
        Effect.flatMap((invoices) => Effect.forEach(invoices, refreshed, { concurrency: REFRESH_CONCURRENCY })),
        Effect.withSpan("BillingInvoices.list")
      )

    /** The user's invoices as last stored, latest first, for support staff (no provider round trip). */
    const listAsStored = (user: User): Effect.Effect<ReadonlyArray<BillingInvoice>> => repo.list(user.id)

    const get = (user: User, id: string): Effect.Effect<BillingInvoiceWithLines, NotFound> =>
      (isUuid(id) ? repo.find(user.id, BillingInvoiceId.make(id)) : Effect.succeed(Option.none())).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound), onSome: Effect.succeed })),
        Effect.withSpan("BillingInvoices.get")
      )

    /** The invoice's PDF and its file name; NotFound while it has none. */
    const pdf = (
      user: User,
      id: string
    ): Effect.Effect<{ readonly fileName: string; readonly bytes: Uint8Array }, NotFound> =>
      Effect.gen(function* () {
        const { invoice } = yield* get(user, id)
        const bytes = yield* repo.pdf(user.id, invoice.id)
        if (Option.isNone(bytes)) {
          return yield* new NotFound({
            detail: `Invoice ${invoice.number} has no PDF yet; the billing run renders it.`
          })
        }
        return { fileName: `${invoice.number}.pdf`, bytes: bytes.value }
      }).pipe(Effect.withSpan("BillingInvoices.pdf"))

    return { usage, list, listAsStored, get, pdf } as const
  })
}) {}
