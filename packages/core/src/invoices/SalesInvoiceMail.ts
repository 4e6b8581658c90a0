import { Effect, Option, Schema } from "effect"
import { Email } from "../Email.js"
import { type NotFound, Refused, ValidationFailed } from "../Errors.js"
import { SalesInvoiceId } from "../Ids.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { findInvoice } from "./InvoiceBook.js"
import type { SalesInvoice } from "./SalesInvoice.js"
import { daysBetween } from "../mail/DaysBetween.js"
import { type QueuedMail, TenantMail } from "../mail/TenantMail.js"
import type { TemplateValues } from "../mail/TemplateValues.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { SalesInvoiceRepo } from "./SalesInvoiceRepo.js"
import { Transactor } from "../system/Transactor.js"
import { ukCalendarDate } from "../CalendarDate.js"
import { CurrentUser } from "../users/CurrentUser.js"
import { decodeInput } from "../Validation.js"

/**
 * Where to send an invoice: `to`, else the customer's email address. Its rule is core's alone: the
 * sdk's InvoiceMailRequest decodes to the type InvoiceMailInput (this schema's encoded side),
 * which the use case checks.
 */
export const InvoiceMailInput = Schema.Struct({
  to: Schema.optionalWith(Email, { nullable: true })
})
export type InvoiceMailInput = typeof InvoiceMailInput.Encoded

const decodeInvoiceMail = decodeInput(InvoiceMailInput)

/** Sales invoices emailed to customers (SalesInvoice template) and payment reminders (PaymentReminder). */
export class SalesInvoiceMail extends Effect.Service<SalesInvoiceMail>()("core/SalesInvoiceMail", {
  effect: Effect.gen(function* () {
    const invoices = yield* SalesInvoiceRepo
    const contacts = yield* ContactRepo
    const mail = yield* TenantMail
    const { transaction } = yield* Transactor
    const clock = yield* Clock

    const findSalesInvoice = findInvoice("sales invoice", (id) => SalesInvoiceId.make(id), invoices.findById)

    /** Queues the invoice's mail of the type, with the values `extra` adds; it fails before anything is queued. */
    const queue = <T extends "SalesInvoice" | "PaymentReminder", E>(
      invoiceId: string,
      input: InvoiceMailInput,
      type: T,
      check: (
        invoice: SalesInvoice,
        today: string
      ) => Effect.Effect<Omit<TemplateValues[T], keyof TemplateValues["SalesInvoice"]>, E>
    ): Effect.Effect<QueuedMail, NotFound | ValidationFailed | E, CurrentTenant | CurrentUser> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const { user } = yield* CurrentUser
        const { to } = yield* decodeInvoiceMail(input)
        const invoice = yield* findSalesInvoice(tenant, invoiceId)
        const extra = yield* check(invoice, ukCalendarDate(yield* clock.now))
        const contact = yield* contacts.findByCode(tenant.id, invoice.contactCode)
        const address = to ?? Option.getOrNull(Option.flatMap(contact, (c) => Option.fromNullable(c.email)))
        if (address === null) {
          return yield* ValidationFailed.one(
            "to",
            "The customer has no email address: give the address to send to in to"
          )
        }
        const values = {
          tenantName: tenant.name,
          contactName: Option.match(contact, { onNone: () => invoice.contactCode, onSome: (c) => c.name }),
          invoiceNumber: invoice.number,
          issueDate: invoice.issueDate,
          dueDate: invoice.dueDate,
          total: invoice.total,
          amountDue: invoice.amountDue,
          reference: invoice.reference,
          ...extra
        } as TemplateValues[T]
        return yield* transaction(
          mail.queue({ tenantId: tenant.id, type, to: address, values, actingUserEmail: user.email })
        )
      }).pipe(Effect.withSpan(`SalesInvoiceMail.${type}`))

    /** Emails the invoice to `to`, else to the customer. */
    const send = (invoiceId: string, input: InvoiceMailInput) =>
      queue(invoiceId, input, "SalesInvoice", () => Effect.succeed({}))

    /** Emails a payment reminder for an overdue invoice: due before today, with an amount still due. */
    const remind = (invoiceId: string, input: InvoiceMailInput) =>
      queue(invoiceId, input, "PaymentReminder", (invoice, today) =>
        invoice.dueDate < today && invoice.amountDue > 0
          ? Effect.succeed({ daysOverdue: daysBetween(invoice.dueDate, today) })
          : Effect.fail(
              new Refused({
                detail:
                  invoice.amountDue === 0
                    ? `Invoice ${invoice.number} has been paid: there is nothing to remind about.`
                    : `Invoice ${invoice.number} is not overdue: it is due on ${invoice.dueDate}.`
              })
            )
      )

    return { send, remind } as const
  })
}) {}
