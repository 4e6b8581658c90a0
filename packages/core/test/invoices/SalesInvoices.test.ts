import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { assert, describe, expect, it, layer } from "@effect/vitest"
import { Effect, FastCheck as fc } from "effect"
import { Conflict, NotFound, ValidationFailed } from "../../src/Errors.js"
import type { NewSalesInvoice } from "../../src/invoices/InvoiceInput.js"
import { salesInvoiceEventData, salesInvoiceEventJson } from "../../src/invoices/SalesInvoiceEventData.js"
import { NotAMember } from "../../src/tenants/NotAMember.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { SalesInvoices } from "../../src/invoices/SalesInvoices.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { asMember, asUser, aUser, testApp } from "../TestApp.js"

const TENANT = "acme-builders"

/** An owner of the tenant (acme-builders) with a customer ACME and a supplier BRICKS, and the use cases. */
const setUpTenant = (code: string) =>
  Effect.gen(function* () {
    const tenants = yield* Tenants
    const contacts = yield* Contacts
    const invoices = yield* SalesInvoices
    const owner = yield* aUser(`owner@${code}.example.com`)
    const { tenant } = yield* tenants
      .create({ code: TenantCode.make(code), name: "Acme", email: null })
      .pipe(asUser(owner))
    yield* contacts.create({ name: "Acme", isCustomer: true }).pipe(asMember(owner, code))
    yield* contacts.create({ name: "Bricks", isSupplier: true }).pipe(asMember(owner, code))
    const events = Effect.flatMap(RecordedEvents, (recorded) => recorded.list(tenant.id)).pipe(
      Effect.map((all) =>
        all.filter((e) => e.type.startsWith("sales-invoice")).map((e) => ({ type: e.type, data: e.data }))
      )
    )
    return { tenants, contacts, invoices, owner, tenant, events } as const
  })

const setUp = setUpTenant(TENANT)

const unreferenced: NewSalesInvoice = {
  contact: "acme",
  issueDate: "2026-04-06",
  dueDate: "2026-05-06",
  subtotal: 100000,
  vat: 20000,
  cisDeduction: 20000
}

const invoice: NewSalesInvoice = { ...unreferenced, reference: "PO 7781" }

describe("SalesInvoices.create", () => {
  it.effect("makes the invoice with the next number and records sales-invoice.created with its DTO", () =>
    Effect.gen(function* () {
      const { events, invoices, owner } = yield* setUp
      const created = yield* invoices.create(invoice).pipe(asMember(owner, TENANT))
      expect(salesInvoiceEventData(created, [])).toEqual({
        id: created.id,
        number: "INV-000001",
        contact: "ACME",
        issueDate: "2026-04-06",
        dueDate: "2026-05-06",
        reference: "PO 7781",
        subtotal: 100000,
        vat: 20000,
        total: 120000,
        cisDeduction: 20000,
        amountPaid: 0,
        amountDue: 100000,
        status: "Open",
        payments: [],
        createdAt: new Date("2026-11-21T09:00:00.000Z")
      })
      expect(yield* events).toEqual([{ type: "sales-invoice.created", data: salesInvoiceEventJson(created, []) }])
      expect((yield* events)[0]?.data).toMatchObject({ subtotal: 1000, total: 1200, amountDue: 1000, payments: [] })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("continues numbering above an explicit INV number; a number taken is Conflict and numbers nothing", () =>
    Effect.gen(function* () {
      const { events, invoices, owner } = yield* setUp
      const number = (asked?: string) =>
        invoices
          .create({ ...invoice, ...(asked ? { number: asked } : {}) })
          .pipe(asMember(owner, TENANT))
          .pipe(Effect.map((i) => i.number))
      expect(yield* number()).toBe("INV-000001")
      expect(yield* number("INV-000007")).toBe("INV-000007")
      expect(yield* number("INV-000003")).toBe("INV-000003")
      expect(yield* number("INV-07")).toBe("INV-07")
      expect(yield* number()).toBe("INV-000008")
      const taken = yield* Effect.flip(number("INV-000008"))
      expect(taken).toEqual(
        new Conflict({
          detail: `${TENANT} already has a sales invoice numbered INV-000008: choose another number, or leave it out for the next one.`
        })
      )
      // An explicit number that fails claims nothing: numbering goes on from where it was.
      expect(yield* Effect.flip(number("INV-000001"))).toBeInstanceOf(Conflict)
      expect(yield* number()).toBe("INV-000009")
      expect((yield* events).length).toBe(6)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a contact that is not a customer or does not exist, and the rules between members", () =>
    Effect.gen(function* () {
      const { events, invoices, owner } = yield* setUp
      const refusal = (input: NewSalesInvoice) => Effect.flip(invoices.create(input).pipe(asMember(owner, TENANT)))
      expect(yield* refusal({ ...invoice, contact: "bricks" })).toEqual(
        ValidationFailed.one("contact", "BRICKS is not a customer: give it the Customer role before invoicing it.")
      )
      expect(yield* refusal({ ...invoice, contact: "nobody" })).toEqual(
        ValidationFailed.one("contact", `There is no contact with the code nobody in ${TENANT}.`)
      )
      expect(yield* refusal({ ...invoice, contact: "not a code!" })).toBeInstanceOf(ValidationFailed)
      const rules = yield* refusal({ ...invoice, dueDate: "2026-04-05", cisDeduction: 100001 })
      assert(rules instanceof ValidationFailed)
      expect(Object.keys(rules.errors).sort()).toEqual(["cisDeduction", "dueDate"])
      expect(
        yield* invoices
          .create({ ...invoice, dueDate: invoice.issueDate, cisDeduction: 100000 })
          .pipe(asMember(owner, TENANT))
      ).toMatchObject({
        number: "INV-000001"
      })
      expect((yield* events).length).toBe(1)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("is refused to a caller who is not a member (NotAMember), NotFound for an unknown tenant", () =>
    Effect.gen(function* () {
      const { invoices } = yield* setUp
      const stranger = yield* aUser("stranger@example.com")
      expect(yield* Effect.flip(invoices.create(invoice).pipe(asMember(stranger, TENANT)))).toBeInstanceOf(NotAMember)
      expect(yield* Effect.flip(invoices.list({}).pipe(asMember(stranger, TENANT)))).toBeInstanceOf(NotAMember)
      expect(
        yield* Effect.flip(invoices.paymentsReport("2026-01-01", "2026-12-31").pipe(asMember(stranger, TENANT)))
      ).toBeInstanceOf(NotAMember)
      expect(yield* Effect.flip(invoices.create(invoice).pipe(asMember(stranger, "no-such-tenant")))).toBeInstanceOf(
        NotFound
      )
    }).pipe(Effect.provide(testApp()))
  )
})

describe("SalesInvoices.addPayment", () => {
  it.effect(
    "gives each payment its deduction share, refuses paying more than is due, and records sales-invoice.paid",
    () =>
      Effect.gen(function* () {
        const { events, invoices, owner } = yield* setUp
        const created = yield* invoices.create(invoice).pipe(asMember(owner, TENANT))
        const pay = (amount: number, date = "2026-05-01") =>
          invoices.addPayment(created.id, { date, amount }).pipe(asMember(owner, TENANT))
        const first = yield* pay(30000)
        expect(first).toMatchObject({ amount: 30000, cisDeduction: 6000, reference: null, date: "2026-05-01" })
        const over = yield* Effect.flip(pay(70001))
        expect(over).toEqual(ValidationFailed.one("amount", "Must be at most the 700.00 due on INV-000001"))
        const second = yield* pay(33333)
        expect(second.cisDeduction).toBe(6667)
        expect((yield* events).map((e) => e.type)).toEqual(["sales-invoice.created"])
        const last = yield* pay(36667, "2026-04-30")
        expect(last.cisDeduction).toBe(20000 - 6000 - 6667)
        const { invoice: paid, payments } = yield* invoices.get(created.id).pipe(asMember(owner, TENANT))
        expect(paid).toMatchObject({ amountPaid: 100000, amountDue: 0, status: "Paid" })
        expect(payments).toEqual([first, second, last])
        expect(yield* events).toEqual([
          { type: "sales-invoice.created", data: salesInvoiceEventJson(created, []) },
          { type: "sales-invoice.paid", data: salesInvoiceEventJson(paid, payments) }
        ])
        expect(yield* Effect.flip(pay(1))).toEqual(
          ValidationFailed.one("amount", "INV-000001 is paid: nothing is due on it.")
        )
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("is NotFound for a malformed id, an unknown invoice or another tenant's", () =>
    Effect.gen(function* () {
      const { invoices, owner, tenants } = yield* setUp
      const created = yield* invoices.create(invoice).pipe(asMember(owner, TENANT))
      yield* tenants.create({ code: TenantCode.make("other-tenant"), name: "Other", email: null }).pipe(asUser(owner))
      const payment = { date: "2026-05-01", amount: 1 }
      for (const [tenant, id] of [
        [TENANT, "nope"],
        [TENANT, "00000000-0000-4000-8000-0000000000ff"],
        ["other-tenant", created.id]
      ] as const) {
        expect(yield* Effect.flip(invoices.addPayment(id, payment).pipe(asMember(owner, tenant)))).toBeInstanceOf(
          NotFound
        )
        expect(yield* Effect.flip(invoices.get(id).pipe(asMember(owner, tenant)))).toBeInstanceOf(NotFound)
      }
      expect((yield* invoices.get(created.id).pipe(asMember(owner, TENANT))).payments).toEqual([])
    }).pipe(Effect.provide(testApp()))
  )
})

describe("SalesInvoices.list", () => {
  it.effect("pages newest issue date first, filters by contact code in any case, and refuses bad paging", () =>
    Effect.gen(function* () {
      const { contacts, invoices, owner } = yield* setUp
      yield* contacts.create({ name: "Beta", isCustomer: true }).pipe(asMember(owner, TENANT))
      for (const [contact, issueDate] of [
        ["ACME", "2026-02-01"],
        ["BETA", "2026-03-01"],
        ["ACME", "2026-03-01"],
        ["ACME", "2026-01-01"]
      ] as const) {
        yield* invoices.create({ ...invoice, contact, issueDate, dueDate: "2026-12-31" }).pipe(asMember(owner, TENANT))
      }
      const numbers = (request: Parameters<typeof invoices.list>[0]) =>
        Effect.map(invoices.list(request).pipe(asMember(owner, TENANT)), (page) => page.items.map((i) => i.number))
      expect(yield* numbers({})).toEqual(["INV-000003", "INV-000002", "INV-000001", "INV-000004"])
      expect(yield* numbers({ contact: "acme", offset: 1, limit: 5 })).toEqual(["INV-000001", "INV-000004"])
      expect(yield* invoices.list({ contact: "nobody" }).pipe(asMember(owner, TENANT))).toEqual({
        items: [],
        totalCount: 0,
        offset: 0,
        limit: 10
      })
      expect(yield* invoices.list({ limit: 99 }).pipe(asMember(owner, TENANT))).toMatchObject({
        totalCount: 4,
        limit: 50
      })
      const bad = yield* Effect.flip(invoices.list({ limit: 0, offset: -2 }).pipe(asMember(owner, TENANT)))
      assert(bad instanceof ValidationFailed)
      expect(Object.keys(bad.errors).sort()).toEqual(["limit", "offset"])
    }).pipe(Effect.provide(testApp()))
  )
})

describe("SalesInvoices.paymentsReport", () => {
  it.effect("refuses malformed bounds and from after to", () =>
    Effect.gen(function* () {
      const { invoices, owner } = yield* setUp
      const error = yield* Effect.flip(
        invoices.paymentsReport("2026-05-02", "2026-05-01").pipe(asMember(owner, TENANT))
      )
      expect(error).toEqual(ValidationFailed.one("from", "Must not be after to"))
      expect(
        yield* Effect.flip(invoices.paymentsReport("", "2026-05-01").pipe(asMember(owner, TENANT)))
      ).toBeInstanceOf(ValidationFailed)
    }).pipe(Effect.provide(testApp()))
  )
})

// One application for all the property's runs, each run in a tenant of its own.
layer(testApp())("SalesInvoices.paymentsReport over many payments", (it) => {
  let run = 0
  const day = fc.integer({ min: 1, max: 20 }).map((d) => `2026-05-${String(d).padStart(2, "0")}`)

  it.effect.prop(
    "lists exactly the payments dated from and to inclusive, by date then id, each with its invoice and customer",
    {
      payments: fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), day, fc.integer({ min: 1, max: 500 })), {
        maxLength: 15
      }),
      bounds: fc.tuple(day, day).map(([a, b]): readonly [string, string] => (a <= b ? [a, b] : [b, a]))
    },
    ({ bounds: [from, to], payments }) =>
      Effect.gen(function* () {
        const code = `acme-${++run}`
        const { contacts, invoices, owner } = yield* setUpTenant(code)
        yield* contacts.create({ name: "Beta Ltd", isCustomer: true }).pipe(asMember(owner, code))
        const made = yield* Effect.all([
          invoices.create({ ...invoice, reference: "First" }).pipe(asMember(owner, code)),
          invoices.create({ ...unreferenced, contact: "BETALTD" }).pipe(asMember(owner, code)),
          invoices.create({ ...invoice, subtotal: 5000, vat: 0, cisDeduction: 1000 }).pipe(asMember(owner, code))
        ])
        const recorded = []
        for (const [which, date, amount] of payments) {
          const target = made[which]!
          recorded.push(
            yield* invoices
              .addPayment(target.id, { date, amount })
              .pipe(asMember(owner, code))
              .pipe(Effect.orElseSucceed(() => null))
          )
        }
        const expected = recorded
          .filter((p) => p !== null && p.date >= from && p.date <= to)
          .sort((a, b) => (a!.date === b!.date ? (a!.id < b!.id ? -1 : 1) : a!.date < b!.date ? -1 : 1))
        const report = yield* invoices
          .paymentsReport(`${from}T00:00:00Z`, `${to}T23:59:59Z`)
          .pipe(asMember(owner, code))
        expect(report).toMatchObject({ from, to })
        expect(report.payments.map((r) => r.payment)).toEqual(expected)
        for (const { contactName, invoice: of, payment } of report.payments) {
          expect(of.id).toBe(payment.invoiceId)
          expect(contactName).toBe(of.contactCode === "ACME" ? "Acme" : "Beta Ltd")
        }
      }),
    { fastCheck: { numRuns: 60 } }
  )
})

describe("contacts with sales invoices", () => {
  it.effect("keep the customer role and cannot be deleted; a contact without them can", () =>
    Effect.gen(function* () {
      const { contacts, invoices, owner } = yield* setUp
      yield* invoices.create(invoice).pipe(asMember(owner, TENANT))
      const acme = yield* contacts.get("ACME").pipe(asMember(owner, TENANT))
      const conflict = yield* Effect.flip(
        contacts
          .update("ACME", {
            name: "Acme",
            isCustomer: false,
            isSupplier: false,
            isCisSubcontractor: false,
            vatRegistered: false
          })
          .pipe(asMember(owner, TENANT))
      )
      expect(conflict).toEqual(
        new Conflict({ detail: "ACME cannot lose the role: it has sales invoices, so it stays a customer." })
      )
      expect(yield* Effect.flip(contacts.remove("acme").pipe(asMember(owner, TENANT)))).toEqual(
        new Conflict({ detail: "ACME has sales invoices, so it cannot be deleted." })
      )
      expect(yield* contacts.get("ACME").pipe(asMember(owner, TENANT))).toEqual(acme)
      yield* contacts.remove("BRICKS").pipe(asMember(owner, TENANT))
    }).pipe(Effect.provide(testApp()))
  )
})
