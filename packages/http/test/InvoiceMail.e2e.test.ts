import type { MailId } from "@cisbook/core/Ids"
import { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { e2e, raw, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

/** A user owning a new tenant with a customer ACME (with an email address) and one without. */
const owner = Effect.gen(function* () {
  const user = yield* signUp("invoicer")
  const tenant = uniqueTenantCode("invmail")
  yield* user.api.tenants.createTenant({ payload: { code: tenant, name: "Lovelace Builders Ltd" } })
  yield* user.api.contacts.createContact({
    path: { tenant },
    payload: { name: "Acme", isCustomer: true, email: "accounts@acme.example" }
  })
  const noMail = yield* user.api.contacts.createContact({
    path: { tenant },
    payload: { name: "No Mail", isCustomer: true }
  })
  return { ...user, tenant, noMail: noMail.code }
})

const anInvoice = (
  api: Effect.Effect.Success<typeof owner>["api"],
  tenant: string,
  fields: { readonly contact?: string; readonly dueDate?: string } = {}
) =>
  api.salesInvoices.createSalesInvoice({
    path: { tenant },
    payload: {
      contact: fields.contact ?? "acme",
      issueDate: "2026-04-06",
      dueDate: fields.dueDate ?? "2026-05-06",
      // The typed client speaks pence.
      subtotal: 100050,
      vat: 20010,
      cisDeduction: 20000
    }
  })

/** The mail as the outbox holds it, rendered, read by claiming it as a sender would. */
const outboxMail = (id: string) =>
  Effect.flatMap(MailOutbox, (outbox) =>
    outbox.claimDue(new Date(Date.now() + 60_000), new Date(Date.now() + 120_000), 1000)
  ).pipe(Effect.map((claimed) => claimed.find((c) => c.mail.id === (id as MailId))?.mail))

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("sales invoice email over HTTP", (it) => {
  describe("POST /tenants/{tenant}/sales-invoices/{invoice}/email", () => {
    it.effect("queues the tenant's SalesInvoice template, filled and signed, to the customer", () =>
      Effect.gen(function* () {
        const { api, tenant, user } = yield* owner
        yield* api.emailSettings.updateEmailSettings({
          path: { tenant },
          payload: { signature: "Ada Lovelace\nLovelace Builders Ltd", autoEmailStatements: false }
        })
        yield* api.emailSettings.updateEmailTemplate({
          path: { tenant, type: "SalesInvoice" },
          payload: {
            subject: "Invoice {{invoiceNumber}} ({{ total }})",
            body: "Hello {{contactName}}, {{amountDue}} is due by {{dueDate}} for {{invoiceNumber}} of {{issueDate}}."
          }
        })
        const invoice = yield* anInvoice(api, tenant)
        const queued = yield* api.salesInvoices.emailSalesInvoice({
          path: { tenant, invoice: invoice.id },
          payload: {}
        })
        expect({ ...queued, id: undefined }).toEqual({
          id: undefined,
          to: "accounts@acme.example",
          subject: `Invoice ${invoice.number} (£1,200.60)`,
          status: "Queued"
        })
        const mail = yield* outboxMail(queued.id)
        expect(mail).toMatchObject({
          type: "SalesInvoice",
          to: "accounts@acme.example",
          fromName: "Lovelace Builders Ltd",
          replyTo: user.email,
          body: `Hello Acme, £1,000.60 is due by 6 May 2026 for ${invoice.number} of 6 April 2026.\n\n-- \nAda Lovelace\nLovelace Builders Ltd`
        })
      })
    )

    it.effect("sends to the address given instead; 400 naming to without an address, 404 for no such invoice", () =>
      Effect.gen(function* () {
        const { api, key, noMail: noMailCode, tenant } = yield* owner
        const invoice = yield* anInvoice(api, tenant)
        const given = yield* api.salesInvoices.emailSalesInvoice({
          path: { tenant, invoice: invoice.id },
          payload: { to: " Finance@Acme.example " }
        })
        expect(given).toMatchObject({ to: "finance@acme.example", status: "Queued" })
        const noMail = yield* anInvoice(api, tenant, { contact: noMailCode })
        const none = yield* raw(key, "POST", `/tenants/${tenant}/sales-invoices/${noMail.id}/email`, {})
        expect(none.status).toBe(400)
        expect(none.body?.errors).toEqual({
          to: ["The customer has no email address: give the address to send to in to"]
        })
        const bad = yield* raw(key, "POST", `/tenants/${tenant}/sales-invoices/${invoice.id}/email`, { to: "nope" })
        expect(bad.status).toBe(400)
        expect(Object.keys(bad.body?.errors ?? {})).toEqual(["to"])
        const missing = yield* raw(key, "POST", `/tenants/${tenant}/sales-invoices/not-an-id/email`, {})
        expect(missing.status).toBe(404)
        const stranger = yield* signUp("stranger")
        const forbidden = yield* raw(stranger.key, "POST", `/tenants/${tenant}/sales-invoices/${invoice.id}/email`, {})
        expect(forbidden.status).toBe(403)
      })
    )
  })

  describe("POST /tenants/{tenant}/sales-invoices/{invoice}/reminders", () => {
    it.effect("queues the PaymentReminder template for an overdue invoice, with the days overdue", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* owner
        const invoice = yield* anInvoice(api, tenant)
        const queued = yield* api.salesInvoices.sendPaymentReminder({
          path: { tenant, invoice: invoice.id },
          payload: {}
        })
        expect(queued).toMatchObject({
          to: "accounts@acme.example",
          subject: `Payment reminder: invoice ${invoice.number} is overdue`,
          status: "Queued"
        })
        const today = new Date().toISOString().slice(0, 10)
        const days = Math.round((Date.parse(today) - Date.parse("2026-05-06")) / 86_400_000)
        const mail = yield* outboxMail(queued.id)
        expect(mail?.body).toContain("Amount outstanding: £1,000.60")
        expect(mail?.body).toMatch(new RegExp(`Days overdue: (${days}|${days - 1}|${days + 1})\\n`))
        expect(mail?.body).toContain("was due for payment on 6 May 2026")
      })
    )

    it.effect("refuses with 400 an invoice that is not yet due, or that is paid", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner
        const future = yield* anInvoice(api, tenant, { dueDate: "2099-01-01" })
        const notDue = yield* raw(key, "POST", `/tenants/${tenant}/sales-invoices/${future.id}/reminders`, {})
        expect(notDue.status).toBe(400)
        expect(notDue.contentType).toContain("application/problem+json")
        expect(notDue.body?.detail).toBe(`Invoice ${future.number} is not overdue: it is due on 2099-01-01.`)
        const paid = yield* anInvoice(api, tenant)
        yield* api.salesInvoices.createSalesInvoicePayment({
          path: { tenant, invoice: paid.id },
          payload: { date: "2026-05-01", amount: 100060 }
        })
        const settled = yield* raw(key, "POST", `/tenants/${tenant}/sales-invoices/${paid.id}/reminders`, {})
        expect(settled.status).toBe(400)
        expect(settled.body?.detail).toBe(`Invoice ${paid.number} has been paid: there is nothing to remind about.`)
      })
    )
  })
})
