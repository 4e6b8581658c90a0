import { Context, Duration, Effect, Option } from "effect"
import { BillingInvoice, type BillingInvoiceWithLines } from "./BillingInvoice.js"
import type { BillingUsage } from "./BillingUsage.js"
import { invoicePaymentStatusOf, refreshedOnListing } from "./InvoicePaymentStatus.js"
import { NotFound } from "../../Errors.js"
import { BillingInvoiceId, isUuid } from "../../Ids.js"
import { BillingInvoiceRepo } from "./BillingInvoiceRepo.js"
import { DirectDebit } from "../mandates/DirectDebit.js"
import { Clock } from "../../system/Clock.js"
import { DirectDebitUnavailable } from "../mandates/DirectDebitFaults.js"
import { CurrentUser } from "../../users/CurrentUser.js"
import type { User } from "../../users/User.js"

/** How long a listing waits for the provider's list of one mandate's payments before answering what it knows. */
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
    const clock = yield* Clock

    /** The invoice with its payment's status as the provider listed it; as stored when the listing does not hold it. */
    const withListedStatus = (
      invoice: BillingInvoice,
      statuses: ReadonlyMap<string, string>
    ): Effect.Effect<BillingInvoice> => {
      const providerStatus = invoice.paymentReference === null ? undefined : statuses.get(invoice.paymentReference)
      if (providerStatus === undefined) return Effect.succeed(invoice)
      const paymentStatus = invoicePaymentStatusOf(providerStatus)
      if (paymentStatus === invoice.paymentStatus) return Effect.succeed(invoice)
      return Effect.flatMap(clock.now, (now) =>
        repo.movePaymentStatus(invoice, invoice.paymentStatus, paymentStatus, now).pipe(
          Effect.as(
            new BillingInvoice({
              ...invoice,
              paymentStatus,
              failedAt: paymentStatus === "Failed" ? now : invoice.failedAt
            })
          )
        )
      )
    }

    /**
     * The invoices of one mandate with their payments as the provider has them now, from one
     * listing of the mandate's payments; as stored when the provider fails or is slow.
     */
    const refreshedOnMandate = (
      mandateId: string,
      invoices: ReadonlyArray<BillingInvoice>
    ): Effect.Effect<ReadonlyArray<BillingInvoice>> =>
      Effect.gen(function* () {
        const timeout = yield* PaymentRefreshTimeout
        const payments = yield* provider.listPayments(mandateId).pipe(
          Effect.timeout(timeout),
          Effect.catchSomeDefect((defect) =>
            defect instanceof DirectDebitUnavailable ? Option.some(Effect.fail(defect)) : Option.none()
          )
        )
        const statuses = new Map(payments.map((payment) => [payment.id, payment.status]))
        return yield* Effect.forEach(invoices, (invoice) => withListedStatus(invoice, statuses))
      }).pipe(
        Effect.catchAll((error) =>
          Effect.logWarning("Could not refresh billing invoices' payments; answering their last known status").pipe(
            Effect.annotateLogs({
              invoices: invoices.map((invoice) => invoice.number).join(", "),
              mandate: mandateId,
              reason: error._tag === "TimeoutException" ? "the provider did not answer in time" : error.message
            }),
            Effect.as(invoices)
          )
        )
      )

    /** The invoices, Pending and Failed ones refreshed with one provider listing per mandate, in their order. */
    const refreshed = (invoices: ReadonlyArray<BillingInvoice>): Effect.Effect<ReadonlyArray<BillingInvoice>> => {
      const byMandate = new Map<string, Array<BillingInvoice>>()
      for (const invoice of invoices) {
        const mandate = invoice.mandateReference
        if (mandate === null || invoice.paymentReference === null || !refreshedOnListing(invoice.paymentStatus))
          continue
        byMandate.set(mandate, [...(byMandate.get(mandate) ?? []), invoice])
      }
      if (byMandate.size === 0) return Effect.succeed(invoices)
      return Effect.forEach(byMandate, ([mandate, some]) => refreshedOnMandate(mandate, some), {
        concurrency: REFRESH_CONCURRENCY
      }).pipe(
        Effect.map((groups) => {
          const now = new Map(groups.flat().map((invoice) => [invoice.id, invoice]))
          return invoices.map((invoice) => now.get(invoice.id) ?? invoice)
        })
      )
    }

    /** What the next billing run charges the current user for: the accepted returns of their tenants not invoiced yet. */
    const usage = (): Effect.Effect<ReadonlyArray<BillingUsage>, never, CurrentUser> =>
      CurrentUser.pipe(
        Effect.flatMap(({ user }) => repo.usage(user.id)),
        Effect.withSpan("BillingInvoices.usage")
      )

    /** The current user's invoices, latest first, Pending and Failed ones refreshed from the provider. */
    const list = (): Effect.Effect<ReadonlyArray<BillingInvoice>, never, CurrentUser> =>
      CurrentUser.pipe(
        Effect.flatMap(({ user }) => repo.list(user.id)),
        Effect.flatMap(refreshed),
        Effect.withSpan("BillingInvoices.list")
      )

    /** The user's invoices as last stored, latest first, for support staff (no provider round trip). */
    const listAsStored = (user: User): Effect.Effect<ReadonlyArray<BillingInvoice>> => repo.list(user.id)

    const find = (user: User, id: string): Effect.Effect<BillingInvoiceWithLines, NotFound> =>
      (isUuid(id) ? repo.find(user.id, BillingInvoiceId.make(id)) : Effect.succeed(Option.none())).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound), onSome: Effect.succeed }))
      )

    /** One of the current user's invoices, with its lines. */
    const get = (id: string): Effect.Effect<BillingInvoiceWithLines, NotFound, CurrentUser> =>
      CurrentUser.pipe(
        Effect.flatMap(({ user }) => find(user, id)),
        Effect.withSpan("BillingInvoices.get")
      )

    /** The current user's invoice's PDF and its file name; NotFound while it has none. */
    const pdf = (
      id: string
    ): Effect.Effect<{ readonly fileName: string; readonly bytes: Uint8Array }, NotFound, CurrentUser> =>
      Effect.gen(function* () {
        const { user } = yield* CurrentUser
        const { invoice } = yield* find(user, id)
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
