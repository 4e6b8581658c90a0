import { Effect } from "effect"
import { blankAsNull } from "../BlankAsNull.js"
import { type Conflict, type NotFound, type ValidationFailed } from "../Errors.js"
import type { NewEvent } from "../events/Event.js"
import { SalesInvoiceId, SalesInvoicePaymentId } from "../Ids.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { paymentShare } from "./PaymentShares.js"
import { findInvoice, invoiceBook } from "./InvoiceBook.js"
import type { NewPayment, NewSalesInvoice } from "./InvoiceInput.js"
import { salesInvoiceNumber, salesInvoiceSequence } from "./InvoiceNumber.js"
import type { InvoiceListPage } from "./InvoicePage.js"
import type { InvoiceListRequest } from "./InvoiceQuery.js"
import { withinAmountDue } from "./AmountDue.js"
import { type ReportPeriod, reportPeriod } from "./ReportPeriod.js"
import { type ReportedPayment, SalesInvoice, SalesInvoicePayment } from "./SalesInvoice.js"
import { salesInvoiceEventJson } from "./SalesInvoiceEventData.js"
import { Clock } from "../system/Clock.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { SalesInvoiceRepo } from "./SalesInvoiceRepo.js"
import { Transactor } from "../system/Transactor.js"
import type { Tenant } from "../tenants/Tenant.js"

export type SalesInvoiceListPage = InvoiceListPage<SalesInvoice>

export interface SalesInvoiceWithPayments {
  readonly invoice: SalesInvoice
  /** Oldest first. */
  readonly payments: ReadonlyArray<SalesInvoicePayment>
}

/** The payments of a period, whose dates (YYYY-MM-DD) are both included. */
export interface PaymentsReport extends ReportPeriod {
  readonly payments: ReadonlyArray<ReportedPayment>
}

const event = (
  type: NewEvent["type"],
  invoice: SalesInvoice,
  payments: ReadonlyArray<SalesInvoicePayment>
): NewEvent => ({ type, data: salesInvoiceEventJson(invoice, payments) })

export class SalesInvoices extends Effect.Service<SalesInvoices>()("core/SalesInvoices", {
  effect: Effect.gen(function* () {
    const repo = yield* SalesInvoiceRepo
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator

    /** The number asked for, or the next one; an INV-style number asked for moves the sequence past it. */
    const issueNumber = (tenant: Tenant, { number: asked }: NewSalesInvoice) => {
      if (asked === undefined) return Effect.map(repo.nextSequence(tenant.id), salesInvoiceNumber)
      const sequence = salesInvoiceSequence(asked)
      return sequence === null ? Effect.succeed(asked) : Effect.as(repo.claimSequence(tenant.id, sequence), asked)
    }

    const book = yield* invoiceBook({
      kind: "sales invoice",
      role: "Customer",
      store: repo,
      toId: (id) => SalesInvoiceId.make(id),
      number: issueNumber,
      make: (members) => Effect.succeed(new SalesInvoice({ ...members, amountPaid: 0 })),
      numberTaken: (tenant, _contact, number) =>
        `${tenant.code} already has a sales invoice numbered ${number}: choose another number, or leave it out for the next one.`,
      recorded: (tenant, invoice) => outbox.record(tenant.id, [event("sales-invoice.created", invoice, [])])
    })
    const findForUpdate = findInvoice("sales invoice", (id) => SalesInvoiceId.make(id), repo.findByIdForUpdate)

    /** Invoices a customer. */
    const create = (
      input: NewSalesInvoice
    ): Effect.Effect<SalesInvoice, NotFound | ValidationFailed | Conflict, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        return yield* book.create(tenant, input)
      }).pipe(Effect.withSpan("SalesInvoices.create"))

    const get = (id: string): Effect.Effect<SalesInvoiceWithPayments, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const invoice = yield* book.find(tenant, id)
        return { invoice, payments: yield* repo.payments(tenant.id, invoice.id) }
      })

    const list = (
      request: InvoiceListRequest
    ): Effect.Effect<SalesInvoiceListPage, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        return yield* book.page(tenant, request)
      }).pipe(Effect.withSpan("SalesInvoices.list"))

    /**
     * Records a payment, with its share of the invoice's CIS deduction. The invoice stays locked
     * meanwhile, so that concurrent payments cannot together pay more than is due. Records
     * sales-invoice.paid when the payment leaves nothing due.
     */
    const addPayment = (
      invoiceId: string,
      input: NewPayment
    ): Effect.Effect<SalesInvoicePayment, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const id = SalesInvoicePaymentId.make(yield* ids.uuid)
        const createdAt = yield* clock.now
        return yield* transaction(
          Effect.gen(function* () {
            const invoice = yield* findForUpdate(tenant, invoiceId)
            yield* withinAmountDue(invoice, input.amount)
            const earlier = yield* repo.payments(tenant.id, invoice.id)
            const before = {
              amount: invoice.amountPaid,
              share: earlier.reduce((sum, p) => sum + p.cisDeduction, 0)
            }
            const payment = new SalesInvoicePayment({
              id,
              tenantId: tenant.id,
              invoiceId: invoice.id,
              date: input.date,
              amount: input.amount,
              cisDeduction: paymentShare(invoice.cisDeduction, invoice.amountPayable, before, input.amount),
              reference: blankAsNull(input.reference),
              createdAt
            })
            yield* repo.addPayment(payment)
            const paid = new SalesInvoice({ ...invoice, amountPaid: invoice.amountPaid + payment.amount })
            if (paid.amountDue === 0) {
              yield* outbox.record(tenant.id, [event("sales-invoice.paid", paid, [...earlier, payment])])
            }
            return payment
          })
        )
      }).pipe(Effect.withSpan("SalesInvoices.addPayment"))

    /** Every payment dated from `from` to `to` (their UTC dates, both included), oldest first. */
    const paymentsReport = (
      from: string,
      to: string
    ): Effect.Effect<PaymentsReport, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const period = yield* reportPeriod(from, to)
        return { ...period, payments: yield* repo.paymentsBetween(tenant.id, period.from, period.to) }
      }).pipe(Effect.withSpan("SalesInvoices.paymentsReport"))

    return { create, get, list, addPayment, paymentsReport } as const
  })
}) {}
