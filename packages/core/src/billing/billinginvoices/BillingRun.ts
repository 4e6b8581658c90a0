import { Duration, Effect, Option } from "effect"
import { BillingInvoice, type BillingInvoiceWithLines } from "./BillingInvoice.js"
import { BillingTerms } from "./BillingTerms.js"
import { collect, waitingForMandate } from "./Collect.js"
import { DirectDebitFault, DirectDebitUnavailable } from "../mandates/DirectDebitFaults.js"
import { dueForRetry, MAX_PAYMENT_RETRIES } from "./FailedPayments.js"
import { invoicePaymentStatusOf } from "./InvoicePaymentStatus.js"
import { WaitingInvoices } from "../mandates/WaitingInvoices.js"
import { draftInvoice } from "./InvoiceDraft.js"
import type { InvoiceDocument } from "./InvoiceDocument.js"
import { BillingInvoiceId, type UserId } from "../../Ids.js"
import { BillingInvoiceRepo, type Collection } from "./BillingInvoiceRepo.js"
import { BillingProfileRepo } from "../mandates/BillingProfileRepo.js"
import type { BillingAddress } from "../mandates/BillingAddress.js"
import { Clock } from "../../system/Clock.js"
import { DirectDebit } from "../mandates/DirectDebit.js"
import { BillingInvoiceRenderer } from "./BillingInvoiceRenderer.js"
import { IdGenerator } from "../../system/IdGenerator.js"
import { MandateRepo } from "../mandates/MandateRepo.js"
import { Transactor } from "../../system/Transactor.js"
import { UserRepo } from "../../users/UserRepo.js"

/** An invoice the run finished, and who it is billed to. */
export interface RunInvoice {
  readonly invoice: BillingInvoice
  readonly billedTo: string
}

/**
 * What the run did with an invoice whose payment had failed: `Retried` asked the provider to
 * collect the same payment again, `PutForward` made a new payment on the user's newer mandate,
 * `WaitingForMandate` leaves it for the next completed mandate (`reason` says why), `Unreached`
 * could not reach the provider (the next run tries again), `Skipped` found it moved meanwhile (by
 * an event, or a racing run).
 */
export interface CollectedAgain {
  readonly invoice: BillingInvoice
  readonly outcome: "Retried" | "PutForward" | "WaitingForMandate" | "Unreached" | "Skipped"
  readonly reason: string
}

export interface RunProgress {
  readonly phase: "Invoicing" | "Collecting" | "Retrying"
  readonly done: number
  readonly total: number
}

export interface RunReport {
  /** Invoices issued by this run. */
  readonly issued: number
  /** Invoices finished by this run (its own, and any a crashed run left unfinished). */
  readonly finished: ReadonlyArray<RunInvoice>
  /** Invoices this run could not finish (the provider unreachable, say): the next run finishes them. */
  readonly unfinished: number
  /** The invoices whose failed payment was due to be collected again, and what was done. */
  readonly collectedAgain: ReadonlyArray<CollectedAgain>
}

/** How long a run holds an unfinished invoice before another run may finish it. */
const LEASE = Duration.minutes(5)
const BATCH = 20
const CONCURRENCY = 4

/**
 * The billing run. First, per user in one transaction, the returns are claimed and their invoice
 * inserted, so that no return is ever billed twice. Then every unfinished invoice (this run's, and
 * any a crashed run left) gets its PDF and its payment: the payment's idempotency key is the
 * invoice id, so finishing an invoice twice never charges twice. Last, every Failed invoice is
 * collected again (a retry when due, or it waits for a mandate).
 */
export class BillingRun extends Effect.Service<BillingRun>()("core/BillingRun", {
  effect: Effect.gen(function* () {
    const repo = yield* BillingInvoiceRepo
    const { transaction } = yield* Transactor
    const ids = yield* IdGenerator
    const clock = yield* Clock
    const terms = yield* BillingTerms
    const mandates = yield* MandateRepo
    const profiles = yield* BillingProfileRepo
    const users = yield* UserRepo
    const provider = yield* DirectDebit
    const renderer = yield* BillingInvoiceRenderer
    const waiting = yield* WaitingInvoices

    /** The user's invoice of everything they owe, or none when a racing run claimed it all. */
    const invoiceUser = (userId: UserId, issueDate: string) =>
      Effect.gen(function* () {
        const id = BillingInvoiceId.make(yield* ids.uuid)
        const now = yield* clock.now
        return yield* transaction(
          Effect.gen(function* () {
            const claimed = yield* repo.claimUsage(userId, id)
            if (claimed.length === 0) return Option.none()
            return Option.some(
              yield* repo.insert(draftInvoice({ id, userId, issueDate }, claimed, terms.pricePerSubcontractor), now)
            )
          })
        )
      }).pipe(Effect.withSpan("BillingRun.invoice"))

    /** The invoices' buyer: their billing address, else (the user never gave one) their name and email. */
    const buyerOf = (userId: UserId, address: BillingAddress | undefined) =>
      Effect.gen(function* () {
        if (address !== undefined) return { document: address, email: address.billingEmail as string }
        const user = yield* users.findById(userId)
        const name = Option.match(user, { onNone: () => "", onSome: (u) => u.name })
        const email = Option.match(user, { onNone: () => null, onSome: (u) => u.email })
        return { document: { name, email }, email: email ?? name }
      })

    /** The mandate collection runs on: a completed one, Active or not yet activated. */
    const collectingMandate = (userId: UserId) =>
      Effect.map(mandates.live(userId), (live) => Option.getOrNull(Option.flatMapNullable(live, (m) => m.reference)))

    /**
     * What finishing a batch's invoices reads of their users (live mandates, billing addresses),
     * read once for the batch: two statements for up to BATCH invoices instead of two each.
     */
    const usersOf = (batch: ReadonlyArray<BillingInvoiceWithLines>) => {
      const userIds = [...new Set(batch.map(({ invoice }) => invoice.userId))]
      return Effect.all({ live: mandates.liveOf(userIds), addresses: profiles.getOf(userIds) }, { concurrency: 2 })
    }
    type BatchUsers = Effect.Effect.Success<ReturnType<typeof usersOf>>

    const finish = ({ invoice, lines }: BillingInvoiceWithLines, known: BatchUsers): Effect.Effect<RunInvoice> =>
      Effect.gen(function* () {
        const mandateReference = known.live.get(invoice.userId)?.reference ?? null
        const buyer = yield* buyerOf(invoice.userId, known.addresses.get(invoice.userId))
        const pdfStored = invoice.hasPdf
          ? Effect.void
          : Effect.suspend(() => {
              const document: InvoiceDocument = {
                seller: terms.seller,
                invoice,
                lines,
                buyer: buyer.document,
                mandateReference
              }
              return Effect.flatMap(renderer.billingInvoice(document), (pdf) =>
                repo.storePdf(invoice.userId, invoice.id, pdf)
              )
            })
        const collected: Effect.Effect<Collection> =
          invoice.total === 0
            ? Effect.succeed({ paymentStatus: "Paid", paymentReference: null, mandateReference: null })
            : mandateReference === null
              ? Effect.succeed(waitingForMandate)
              : collect(provider, invoice, mandateReference, invoice.id).pipe(
                  Effect.catchTag("DirectDebitRefused", (refused) =>
                    Effect.logWarning(
                      "The direct debit provider refused a payment; the invoice waits for a mandate"
                    ).pipe(
                      Effect.annotateLogs({ invoice: invoice.number, reason: refused.message }),
                      Effect.as(waitingForMandate)
                    )
                  )
                )
        // The PDF is drawn and stored while the provider's call is under way (neither needs the
        // other); it is stored even when the provider cannot be reached, as it was before.
        const [outcome] = yield* Effect.all([Effect.exit(collected), pdfStored], { concurrency: 2 })
        const collection = yield* outcome
        yield* repo.recordCollection(invoice.userId, invoice.id, collection, true)
        return {
          invoice: new BillingInvoice({ ...invoice, ...collection, hasPdf: true, finished: true }),
          billedTo: buyer.email
        }
      }).pipe(Effect.withSpan("BillingRun.finish"))

    /**
     * Finishes one invoice, or leaves it unfinished when that fails unexpectedly (a provider that
     * cannot be reached is a defect): its lease runs out and a later run finishes it.
     */
    const tryFinish = (
      unfinished: BillingInvoiceWithLines,
      known: BatchUsers
    ): Effect.Effect<Option.Option<RunInvoice>> =>
      finish(unfinished, known).pipe(
        Effect.map(Option.some),
        Effect.catchAllDefect((defect) =>
          Effect.logError("A billing invoice could not be finished; a later run finishes it").pipe(
            Effect.annotateLogs({ invoice: unfinished.invoice.number, defect: String(defect) }),
            Effect.as(Option.none())
          )
        )
      )

    /** Finishes unfinished invoices batch by batch until none is left to lease. */
    const finishAll = (onFinished: (n: number) => Effect.Effect<void>) =>
      Effect.gen(function* () {
        const finished: Array<RunInvoice> = []
        let unfinished = 0
        while (true) {
          const now = yield* clock.now
          const batch = yield* repo.claimUnfinished(now, new Date(now.getTime() + Duration.toMillis(LEASE)), BATCH)
          if (batch.length === 0) return { finished, unfinished }
          // Unreadable, the batch is left unfinished as an invoice is (its lease runs out).
          const known = yield* usersOf(batch).pipe(
            Effect.map(Option.some),
            Effect.catchAllDefect((defect) =>
              Effect.logError("A batch of billing invoices could not be finished; a later run finishes them").pipe(
                Effect.annotateLogs({ invoices: batch.length, defect: String(defect) }),
                Effect.as(Option.none())
              )
            )
          )
          const done = Option.isSome(known)
            ? yield* Effect.forEach(batch, (one) => tryFinish(one, known.value), { concurrency: CONCURRENCY })
            : batch.map(() => Option.none())
          for (const one of done) {
            if (Option.isSome(one)) finished.push(one.value)
            else unfinished += 1
          }
          yield* onFinished(finished.length + unfinished)
        }
      })

    /** Moves a Failed invoice to WaitingForMandate, and puts it forward at once on the user's newer mandate. */
    const waitForMandate = (invoice: BillingInvoice, collecting: string | null, reason: string) =>
      Effect.gen(function* () {
        const moved = yield* repo.movePaymentStatus(invoice, "Failed", "WaitingForMandate", yield* clock.now)
        if (!moved) return { invoice, outcome: "Skipped", reason: "its payment changed meanwhile" } as const
        if (collecting !== null && collecting !== invoice.mandateReference) {
          yield* waiting.putForward(invoice.userId, collecting)
          const now = yield* repo.find(invoice.userId, invoice.id)
          const current = Option.match(now, { onNone: () => invoice, onSome: (found) => found.invoice })
          if (current.paymentStatus !== "WaitingForMandate") {
            return { invoice: current, outcome: "PutForward", reason: `collected on mandate ${collecting}` } as const
          }
        }
        return {
          invoice: new BillingInvoice({ ...invoice, paymentStatus: "WaitingForMandate" }),
          outcome: "WaitingForMandate",
          reason
        } as const
      })

    /** Asks the provider to collect the invoice's failed payment again, and records the retry. */
    const retry = (invoice: BillingInvoice, payment: string, collecting: string) =>
      provider.retryPayment(payment).pipe(
        Effect.flatMap((retried) => {
          const to = invoicePaymentStatusOf(retried.status)
          return Effect.map(repo.recordRetry(invoice, to), (recorded): CollectedAgain =>
            recorded
              ? {
                  invoice: new BillingInvoice({
                    ...invoice,
                    paymentStatus: to,
                    paymentRetries: invoice.paymentRetries + 1
                  }),
                  outcome: "Retried",
                  reason: `retry ${invoice.paymentRetries + 1} of ${MAX_PAYMENT_RETRIES}`
                }
              : { invoice, outcome: "Skipped", reason: "its payment changed meanwhile" }
          )
        }),
        // A refusal will not change by asking again: the invoice waits for a new mandate. (A retry
        // GoCardless had already made, its answer lost, is no refusal: the adapter answers the
        // payment as it now is.)
        Effect.catchTag("DirectDebitRefused", (refused) =>
          Effect.logWarning(
            "The direct debit provider refused to retry a payment; the invoice waits for a mandate"
          ).pipe(
            Effect.annotateLogs({ invoice: invoice.number, reason: refused.reason, message: refused.message }),
            Effect.zipRight(waitForMandate(invoice, collecting, `the provider refused the retry: ${refused.message}`))
          )
        )
      )

    /**
     * Collects a Failed invoice again, as the run dated `runDate` does: an invoice whose mandate
     * can no longer collect (or whose retries are spent) waits for a mandate at once, put forward
     * when the user already completed a newer one; one whose mandate can still collect is retried
     * once it is due (3 days after the failure, counted to the run's date), else left (none).
     */
    const collectAgain = (invoice: BillingInvoice, runDate: string): Effect.Effect<Option.Option<CollectedAgain>> =>
      Effect.gen(function* () {
        const collecting = yield* collectingMandate(invoice.userId)
        const payment = invoice.paymentReference
        if (collecting === null) {
          return Option.some(yield* waitForMandate(invoice, collecting, "the user has no mandate that can collect"))
        }
        if (collecting !== invoice.mandateReference || payment === null) {
          return Option.some(
            yield* waitForMandate(
              invoice,
              collecting,
              `its mandate ${invoice.mandateReference ?? ""} no longer collects`
            )
          )
        }
        if (invoice.paymentRetries >= MAX_PAYMENT_RETRIES) {
          return Option.some(
            yield* waitForMandate(invoice, collecting, `its payment failed after ${MAX_PAYMENT_RETRIES} retries`)
          )
        }
        if (!dueForRetry(invoice, runDate)) return Option.none()
        return Option.some(yield* retry(invoice, payment, collecting))
      }).pipe(
        // Left Failed for the next run: the provider unavailable (said as a warning), or a fault
        // of ours or the provider's (an error, and the run reports it).
        Effect.catchAllDefect((defect) =>
          defect instanceof DirectDebitUnavailable
            ? Effect.logWarning(
                "The direct debit provider is unavailable; the next run collects the invoice again"
              ).pipe(
                Effect.annotateLogs({ invoice: invoice.number, reason: defect.message }),
                Effect.as(Option.some<CollectedAgain>({ invoice, outcome: "Unreached", reason: defect.message }))
              )
            : Effect.logError("A failed invoice could not be collected again; the next run tries again", defect).pipe(
                Effect.annotateLogs({ invoice: invoice.number }),
                Effect.as(
                  Option.some<CollectedAgain>({
                    invoice,
                    outcome: "Unreached",
                    reason: defect instanceof DirectDebitFault ? defect.message : "an unexpected failure (see the log)"
                  })
                )
              )
        ),
        Effect.withSpan("BillingRun.collectAgain")
      )

    /** Every Failed invoice, collected again as the run dated `runDate` does (see collectAgain). */
    const collectFailed = (runDate: string, onProgress: (progress: RunProgress) => Effect.Effect<void>) =>
      Effect.gen(function* () {
        const failed = yield* repo.failedInvoices
        let done = 0
        const collected = yield* Effect.forEach(
          failed,
          (invoice) =>
            collectAgain(invoice, runDate).pipe(
              Effect.tap(() => {
                done += 1
                return onProgress({ phase: "Retrying", done, total: failed.length })
              })
            ),
          { concurrency: CONCURRENCY }
        )
        return collected.flatMap(Option.toArray)
      })

    /**
     * The run dated `runDate` (YYYY-MM-DD): its "today" for every rule, the invoices' issue date
     * and the day the 3 days after a failure are counted to, whatever the wall clock says.
     */
    const run = (
      runDate: string,
      onProgress: (progress: RunProgress) => Effect.Effect<void> = () => Effect.void
    ): Effect.Effect<RunReport> =>
      Effect.gen(function* () {
        const owing = yield* repo.usersWithUsage
        let invoiced = 0
        let issued = 0
        yield* Effect.forEach(
          owing,
          (userId) =>
            invoiceUser(userId, runDate).pipe(
              Effect.tap((made) => {
                invoiced += 1
                if (Option.isSome(made)) issued += 1
                return onProgress({ phase: "Invoicing", done: invoiced, total: owing.length })
              })
            ),
          { concurrency: CONCURRENCY, discard: true }
        )
        const { finished, unfinished } = yield* finishAll((n) =>
          onProgress({ phase: "Collecting", done: n, total: Math.max(n, issued) })
        )
        const collectedAgain = yield* collectFailed(runDate, onProgress)
        return { issued, finished, unfinished, collectedAgain }
      }).pipe(Effect.withSpan("BillingRun.run"))

    return { run } as const
  })
}) {}
