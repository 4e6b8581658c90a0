import { type Cause, Context, Deferred, Duration, Effect, FiberId, Option } from "effect"
import { BillingInvoice, type BillingInvoiceWithLines } from "./BillingInvoice.js"
import type { BillingUsage } from "./BillingUsage.js"
import { invoicePaymentStatusOf, refreshedOnListing } from "./InvoicePaymentStatus.js"
import { NotFound } from "../../Errors.js"
import { BillingInvoiceId, isUuid } from "../../Ids.js"
import { BillingInvoiceRepo } from "./BillingInvoiceRepo.js"
import { DirectDebit, type DirectDebitRefused, type ProviderPayment } from "../mandates/DirectDebit.js"
import { Clock } from "../../system/Clock.js"
import { DirectDebitUnavailable } from "../mandates/DirectDebitFaults.js"
import { CurrentUser } from "../../users/CurrentUser.js"
import type { User } from "../../users/User.js"

/** How long a listing waits for the provider's list of one mandate's payments before answering what it knows. */
export class PaymentRefreshTimeout extends Context.Reference<PaymentRefreshTimeout>()("core/PaymentRefreshTimeout", {
  defaultValue: () => Duration.seconds(3)
}) {}

/**
 * How long what the provider last said of a payment (read by a listing, or moved by its event)
 * stands: a listing within this time answers it as stored instead of asking again.
 */
export class PaymentFreshness extends Context.Reference<PaymentFreshness>()("core/PaymentFreshness", {
  defaultValue: () => Duration.minutes(1)
}) {}

const REFRESH_CONCURRENCY = 8

/** Why a listing of a mandate's payments was not had: refused, unreachable, or too slow. */
type ListingFailed = DirectDebitRefused | DirectDebitUnavailable | Cause.TimeoutException

const notFound = new NotFound({ detail: "You have no billing invoice with this id." })

/** The calling user's usage not invoiced yet, and the service's invoices to them. */
export class BillingInvoices extends Effect.Service<BillingInvoices>()("core/BillingInvoices", {
  effect: Effect.gen(function* () {
    const repo = yield* BillingInvoiceRepo
    const provider = yield* DirectDebit
    const clock = yield* Clock

    /** The provider's listings of a mandate's payments under way, by mandate. */
    const listings = new Map<string, Deferred.Deferred<ReadonlyArray<ProviderPayment>, ListingFailed>>()

    /**
     * The mandate's payments as the provider lists them, or why not within PaymentRefreshTimeout.
     * Listings of one mandate at the same time share one provider call (a user's open tabs, or
     * retries, would otherwise each ask); it runs apart from them, so that a request that goes
     * away does not end it for the others.
     */
    const paymentsListed = (mandateId: string): Effect.Effect<ReadonlyArray<ProviderPayment>, ListingFailed> =>
      Effect.suspend(() => {
        const running = listings.get(mandateId)
        if (running !== undefined) return Deferred.await(running)
        const listing = Deferred.unsafeMake<ReadonlyArray<ProviderPayment>, ListingFailed>(FiberId.none)
        listings.set(mandateId, listing)
        return PaymentRefreshTimeout.pipe(
          Effect.flatMap((timeout) => provider.listPayments(mandateId).pipe(Effect.timeout(timeout))),
          Effect.catchSomeDefect((defect) =>
            defect instanceof DirectDebitUnavailable ? Option.some(Effect.fail(defect)) : Option.none()
          ),
          Effect.exit,
          Effect.flatMap((exit) => {
            listings.delete(mandateId)
            return Deferred.done(listing, exit)
          }),
          Effect.forkDaemon,
          Effect.zipRight(Deferred.await(listing))
        )
      })

    /**
     * The invoice with its payment's status as the provider listed it at `now` (a move records
     * when it was read); as stored when the listing does not hold it.
     */
    const withListedStatus = (
      invoice: BillingInvoice,
      statuses: ReadonlyMap<string, string>,
      now: Date
    ): Effect.Effect<BillingInvoice> => {
      const providerStatus = invoice.paymentReference === null ? undefined : statuses.get(invoice.paymentReference)
      if (providerStatus === undefined) return Effect.succeed(invoice)
      const paymentStatus = invoicePaymentStatusOf(providerStatus)
      if (paymentStatus === invoice.paymentStatus) return Effect.succeed(invoice)
      return repo.movePaymentStatus(invoice, invoice.paymentStatus, paymentStatus, now).pipe(
        Effect.as(
          new BillingInvoice({
            ...invoice,
            paymentStatus,
            failedAt: paymentStatus === "Failed" ? now : invoice.failedAt,
            paymentReadAt: now
          })
        )
      )
    }

    /**
     * The invoices of one mandate with their payments as the provider has them now, from one
     * listing of the mandate's payments; as stored when the provider fails or is slow. The
     * payments it listed are recorded as read now.
     */
    const refreshedOnMandate = (
      mandateId: string,
      invoices: ReadonlyArray<BillingInvoice>,
      now: Date
    ): Effect.Effect<ReadonlyArray<BillingInvoice>> =>
      Effect.gen(function* () {
        const payments = yield* paymentsListed(mandateId)
        const statuses = new Map(payments.map((payment) => [payment.id, payment.status]))
        const listed = yield* Effect.forEach(invoices, (invoice) => withListedStatus(invoice, statuses, now))
        // A moved invoice recorded its read with the move; the others listed are recorded here.
        const unmoved = listed.filter(
          (invoice, n) => invoice === invoices[n] && statuses.has(invoice.paymentReference ?? "")
        )
        if (unmoved.length === 0) return listed
        yield* repo.recordPaymentsRead(
          unmoved[0]!.userId,
          unmoved.map((invoice) => invoice.id),
          now
        )
        return listed.map((invoice) =>
          unmoved.includes(invoice) ? new BillingInvoice({ ...invoice, paymentReadAt: now }) : invoice
        )
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

    /** Whether the listing asks the provider for the invoice's payment: one that can still change, not read lately. */
    const due = (invoice: BillingInvoice, now: Date, freshness: Duration.Duration) =>
      invoice.mandateReference !== null &&
      invoice.paymentReference !== null &&
      refreshedOnListing(invoice.paymentStatus) &&
      (invoice.paymentReadAt === null ||
        now.getTime() - invoice.paymentReadAt.getTime() >= Duration.toMillis(freshness))

    /**
     * The invoices, Pending and Failed ones not read within the freshness window refreshed with
     * one provider listing per mandate, in their order.
     */
    const refreshed = (invoices: ReadonlyArray<BillingInvoice>): Effect.Effect<ReadonlyArray<BillingInvoice>> =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const freshness = yield* PaymentFreshness
        const byMandate = new Map<string, Array<BillingInvoice>>()
        for (const invoice of invoices) {
          if (!due(invoice, now, freshness)) continue
          const mandate = invoice.mandateReference!
          byMandate.set(mandate, [...(byMandate.get(mandate) ?? []), invoice])
        }
        if (byMandate.size === 0) return invoices
        const groups = yield* Effect.forEach(byMandate, ([mandate, some]) => refreshedOnMandate(mandate, some, now), {
          concurrency: REFRESH_CONCURRENCY
        })
        const current = new Map(groups.flat().map((invoice) => [invoice.id, invoice]))
        return invoices.map((invoice) => current.get(invoice.id) ?? invoice)
      })

    /** What the next billing run charges the current user for: the accepted returns of their tenants not invoiced yet. */
    const usage = (): Effect.Effect<ReadonlyArray<BillingUsage>, never, CurrentUser> =>
      CurrentUser.pipe(
        Effect.flatMap(({ user }) => repo.usage(user.id)),
        Effect.withSpan("BillingInvoices.usage")
      )

    /**
     * The current user's invoices, latest first, Pending and Failed ones refreshed from the
     * provider unless it was heard from within the freshness window.
     */
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
