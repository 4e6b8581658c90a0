import { Effect, Option } from "effect"
import { Conflict, type Forbidden, NotFound, ValidationFailed } from "../Errors.js"
import type { NewEvent } from "../events/Event.js"
import { isUuid, SalesInvoiceId, SalesInvoicePaymentId } from "../Ids.js"
import { deductionShare } from "./DeductionSplit.js"
import { invoiceErrors, type NewPayment, type NewSalesInvoice } from "./InvoiceInput.js"
import { salesInvoiceNumber, salesInvoiceSequence } from "./InvoiceNumber.js"
import type { InvoiceListRequest } from "./InvoiceQuery.js"
import { formatPounds } from "../Money.js"
import { type ReportPeriod, reportPeriod } from "./ReportPeriod.js"
import { type ReportedPayment, SalesInvoice, SalesInvoicePayment } from "./SalesInvoice.js"
import { salesInvoiceJson } from "./SalesInvoiceView.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { SalesInvoiceRepo } from "./SalesInvoiceRepo.js"
import { Transactor } from "../system/Transactor.js"
import type { Tenant } from "../tenants/Tenant.js"
import type { User } from "../users/User.js"
import { failIfAny } from "../Validation.js"
import { invoicedContact } from "./InvoicedContact.js"
import { invoicePage } from "./InvoicePage.js"
import { Tenants } from "../tenants/Tenants.js"

export interface SalesInvoiceListPage {
  readonly items: ReadonlyArray<SalesInvoice>
  readonly totalCount: number
  readonly offset: number
  /** The page size served: at most the maximum, whatever was asked. */
  readonly limit: number
}

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
): NewEvent => ({ type, data: salesInvoiceJson(invoice, payments) })

/** An absent or blank optional string is no value. */
const text = (value: string | null | undefined) => (value ? value : null)

export class SalesInvoices extends Effect.Service<SalesInvoices>()("core/SalesInvoices", {
  effect: Effect.gen(function* () {
    const tenants = yield* Tenants
    const repo = yield* SalesInvoiceRepo
    const contacts = yield* ContactRepo
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator

    const notFound = (tenant: Tenant, id: string) =>
      new NotFound({ detail: `There is no sales invoice ${id} in ${tenant.code}.` })

    const find = (tenant: Tenant, id: string, forUpdate = false): Effect.Effect<SalesInvoice, NotFound> => {
      if (!isUuid(id)) return Effect.fail(notFound(tenant, id))
      const lookup = forUpdate ? repo.findByIdForUpdate : repo.findById
      return lookup(tenant.id, SalesInvoiceId.make(id)).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(tenant, id)), onSome: Effect.succeed }))
      )
    }

    /** The number asked for, or the next one; an INV-style number asked for moves the sequence past it. */
    const issueNumber = (tenant: Tenant, asked: string | undefined) => {
      if (asked === undefined) return Effect.map(repo.nextSequence(tenant.id), salesInvoiceNumber)
      const sequence = salesInvoiceSequence(asked)
      return sequence === null ? Effect.succeed(asked) : Effect.as(repo.claimSequence(tenant.id, sequence), asked)
    }

    /**
     * Invoices a customer. The contact stays locked until the invoice is in, so that a concurrent
     * removal of its customer role, or of the contact, waits and then sees the invoice.
     */
    const create = (
      user: User,
      tenantCode: string,
      input: NewSalesInvoice
    ): Effect.Effect<SalesInvoice, Forbidden | NotFound | ValidationFailed | Conflict> =>
      Effect.gen(function* () {
        const { tenant } = yield* tenants.access(user, tenantCode)
        yield* failIfAny(invoiceErrors(input))
        const id = SalesInvoiceId.make(yield* ids.uuid)
        const createdAt = yield* clock.now
        return yield* transaction(
          Effect.gen(function* () {
            const contact = yield* invoicedContact(contacts, tenant, input.contact, "Customer")
            const number = yield* issueNumber(tenant, input.number)
            const invoice = new SalesInvoice({
              id,
              tenantId: tenant.id,
              number,
              contactId: contact.id,
              contactCode: contact.code,
              issueDate: input.issueDate,
              dueDate: input.dueDate,
              reference: text(input.reference),
              subtotal: input.subtotal,
              vat: input.vat,
              cisDeduction: input.cisDeduction ?? 0,
              amountPaid: 0,
              createdAt
            })
            yield* repo.insert(invoice).pipe(
              Effect.catchTag("DuplicateKey", () =>
                Effect.fail(
                  new Conflict({
                    detail: `${tenant.code} already has a sales invoice numbered ${number}: choose another number, or leave it out for the next one.`
                  })
                )
              )
            )
            yield* outbox.record(tenant.id, [event("sales-invoice.created", invoice, [])])
            return invoice
          })
        )
      }).pipe(Effect.withSpan("SalesInvoices.create"))

    const get = (
      user: User,
      tenantCode: string,
      id: string
    ): Effect.Effect<SalesInvoiceWithPayments, Forbidden | NotFound> =>
      Effect.gen(function* () {
        const { tenant } = yield* tenants.access(user, tenantCode)
        const invoice = yield* find(tenant, id)
        return { invoice, payments: yield* repo.payments(tenant.id, invoice.id) }
      })

    const list = (
      user: User,
      tenantCode: string,
      request: InvoiceListRequest
    ): Effect.Effect<SalesInvoiceListPage, Forbidden | NotFound | ValidationFailed> =>
      Effect.gen(function* () {
        const { tenant } = yield* tenants.access(user, tenantCode)
        return yield* invoicePage(contacts, tenant, request, (query) => repo.list(tenant.id, query))
      }).pipe(Effect.withSpan("SalesInvoices.list"))

    /**
     * Records a payment, with its share of the invoice's CIS deduction. The invoice stays locked
     * meanwhile, so that concurrent payments cannot together pay more than is due. Records
     * sales-invoice.paid when the payment leaves nothing due.
     */
    const addPayment = (
      user: User,
      tenantCode: string,
      invoiceId: string,
      input: NewPayment
    ): Effect.Effect<SalesInvoicePayment, Forbidden | NotFound | ValidationFailed> =>
      Effect.gen(function* () {
        const { tenant } = yield* tenants.access(user, tenantCode)
        const id = SalesInvoicePaymentId.make(yield* ids.uuid)
        const createdAt = yield* clock.now
        return yield* transaction(
          Effect.gen(function* () {
            const invoice = yield* find(tenant, invoiceId, true)
            if (input.amount > invoice.amountDue) {
              return yield* ValidationFailed.one(
                "amount",
                invoice.amountDue === 0
                  ? `${invoice.number} is paid: nothing is due on it.`
                  : `Must be at most the ${formatPounds(invoice.amountDue)} due on ${invoice.number}`
              )
            }
            const earlier = yield* repo.payments(tenant.id, invoice.id)
            const before = {
              amount: invoice.amountPaid,
              deduction: earlier.reduce((sum, p) => sum + p.cisDeduction, 0)
            }
            const payment = new SalesInvoicePayment({
              id,
              tenantId: tenant.id,
              invoiceId: invoice.id,
              date: input.date,
              amount: input.amount,
              cisDeduction: deductionShare(invoice.cisDeduction, invoice.amountPayable, before, input.amount),
              reference: text(input.reference),
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
      user: User,
      tenantCode: string,
      from: string,
      to: string
    ): Effect.Effect<PaymentsReport, Forbidden | NotFound | ValidationFailed> =>
      Effect.gen(function* () {
        const { tenant } = yield* tenants.access(user, tenantCode)
        const period = yield* reportPeriod(from, to)
        return { ...period, payments: yield* repo.paymentsBetween(tenant.id, period.from, period.to) }
      }).pipe(Effect.withSpan("SalesInvoices.paymentsReport"))

    return { create, get, list, addPayment, paymentsReport } as const
  })
}) {}
