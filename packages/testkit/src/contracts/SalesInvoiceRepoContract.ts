import { Contact } from "@cisbook/core/contacts/Contact"
import { SalesInvoice } from "@cisbook/core/invoices/SalesInvoice"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { SalesInvoiceRepo } from "@cisbook/core/invoices/SalesInvoiceRepo"
import { Transactor } from "@cisbook/core/system/Transactor"
import type { InvoiceListQuery } from "@cisbook/core/invoices/InvoiceQuery"
import { expect } from "@effect/vitest"
import { Effect, FastCheck as fc, Option } from "effect"
import { at, type ContractIt, storedTenant } from "./Fixtures.js"
import { newPayment, newSalesInvoice, storedContact, storedSalesInvoice } from "./InvoiceFixtures.js"

const page: InvoiceListQuery = { offset: 0, limit: 50, contactId: null }

export const salesInvoiceRepoContract = (it: ContractIt) => {
  it.effect("keeps every member of an invoice, found by tenant and id only, with or without a lock", () =>
    Effect.gen(function* () {
      const repo = yield* SalesInvoiceRepo
      const tenant = yield* storedTenant
      const contact = yield* storedContact(tenant)
      const invoice = yield* storedSalesInvoice(contact, {
        number: "INV-000001",
        reference: 'PO 7781, "Elm"',
        issueDate: "2026-02-28",
        dueDate: "2026-03-31",
        subtotal: 99_999_999_999,
        vat: 0,
        cisDeduction: 99_999_999_998,
        createdAt: at(3)
      })
      expect(yield* repo.findById(tenant.id, invoice.id)).toEqual(Option.some(invoice))
      expect(yield* (yield* Transactor).transaction(repo.findByIdForUpdate(tenant.id, invoice.id))).toEqual(
        Option.some(invoice)
      )
      const other = yield* storedTenant
      expect(yield* repo.findById(other.id, invoice.id)).toEqual(Option.none())
      expect(yield* repo.findByIdForUpdate(other.id, invoice.id)).toEqual(Option.none())
    })
  )

  it.effect("takes a number once per tenant: a second is DuplicateKey number, another tenant may use it", () =>
    Effect.gen(function* () {
      const repo = yield* SalesInvoiceRepo
      const tenant = yield* storedTenant
      const contact = yield* storedContact(tenant)
      yield* storedSalesInvoice(contact, { number: "INV-000001" })
      const again = yield* newSalesInvoice(yield* storedContact(tenant), { number: "INV-000001" })
      expect(yield* Effect.flip(repo.insert(again))).toMatchObject({ _tag: "DuplicateKey", key: "number" })
      const other = yield* storedTenant
      yield* storedSalesInvoice(yield* storedContact(other), { number: "INV-000001" })
      expect((yield* repo.list(tenant.id, page)).totalCount).toBe(1)
      expect((yield* repo.list(other.id, page)).totalCount).toBe(1)
    })
  )

  it.effect("issues sequences 1, 2, 3 per tenant, above every claimed one; a rolled back one is issued again", () =>
    Effect.gen(function* () {
      const repo = yield* SalesInvoiceRepo
      const { transaction } = yield* Transactor
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      const next = (t = tenant) => transaction(repo.nextSequence(t.id))
      expect(yield* next()).toBe(1)
      expect(yield* next()).toBe(2)
      expect(yield* next(other)).toBe(1)
      yield* transaction(repo.claimSequence(tenant.id, 10))
      yield* transaction(repo.claimSequence(tenant.id, 4))
      expect(yield* next()).toBe(11)
      yield* transaction(repo.claimSequence(other.id, 1))
      expect(yield* next(other)).toBe(2)
      const fresh = yield* storedTenant
      yield* transaction(repo.claimSequence(fresh.id, 7))
      expect(yield* next(fresh)).toBe(8)
      const failed = yield* Effect.exit(transaction(Effect.zipRight(repo.nextSequence(tenant.id), Effect.fail("undo"))))
      expect(failed._tag).toBe("Failure")
      expect(yield* next()).toBe(12)
    })
  )

  it.effect("lists newest issue date first, then newest created, paged and by contact, counting every match", () =>
    Effect.gen(function* () {
      const repo = yield* SalesInvoiceRepo
      const tenant = yield* storedTenant
      const a = yield* storedContact(tenant)
      const b = yield* storedContact(tenant)
      const i1 = yield* storedSalesInvoice(a, { issueDate: "2026-01-10", createdAt: at(5) })
      const i2 = yield* storedSalesInvoice(b, { issueDate: "2026-03-01", createdAt: at(1) })
      const i3 = yield* storedSalesInvoice(a, { issueDate: "2026-03-01", createdAt: at(2) })
      const i4 = yield* storedSalesInvoice(a, { issueDate: "2026-02-01", createdAt: at(0) })
      const ids = (query: Partial<typeof page>) =>
        Effect.map(repo.list(tenant.id, { ...page, ...query }), (p) => ({
          totalCount: p.totalCount,
          ids: p.items.map((i) => i.id)
        }))
      expect(yield* ids({})).toEqual({ totalCount: 4, ids: [i3.id, i2.id, i4.id, i1.id] })
      expect(yield* ids({ offset: 1, limit: 2 })).toEqual({ totalCount: 4, ids: [i2.id, i4.id] })
      expect(yield* ids({ contactId: a.id })).toEqual({ totalCount: 3, ids: [i3.id, i4.id, i1.id] })
      expect(yield* ids({ contactId: a.id, offset: 3 })).toEqual({ totalCount: 3, ids: [] })
      expect((yield* repo.list(tenant.id, page)).items[0]).toEqual(i3)
      const other = yield* storedTenant
      expect(yield* repo.list(other.id, page)).toEqual({ items: [], totalCount: 0 })
      expect(yield* repo.list(other.id, { ...page, contactId: a.id })).toEqual({ items: [], totalCount: 0 })
    })
  )

  it.effect("adds a payment to its invoice's amount paid and lists payments in the order recorded", () =>
    Effect.gen(function* () {
      const repo = yield* SalesInvoiceRepo
      const tenant = yield* storedTenant
      const invoice = yield* storedSalesInvoice(yield* storedContact(tenant))
      const first = yield* newPayment(invoice, {
        date: "2026-05-03",
        amount: 30000,
        cisDeduction: 6000,
        createdAt: at(1)
      })
      const second = yield* newPayment(invoice, {
        date: "2026-05-01",
        amount: 70000,
        cisDeduction: 14000,
        reference: "BACS 9",
        createdAt: at(2)
      })
      yield* repo.addPayment(first)
      yield* repo.addPayment(second)
      expect(yield* repo.payments(tenant.id, invoice.id)).toEqual([first, second])
      expect(yield* repo.findById(tenant.id, invoice.id)).toEqual(
        Option.some(new SalesInvoice({ ...invoice, amountPaid: 100000 }))
      )
      const other = yield* storedTenant
      expect(yield* repo.payments(other.id, invoice.id)).toEqual([])
    })
  )

  it.effect(
    "reports the tenant's payments dated from and to inclusive, by date then id, with the contact's name now",
    () =>
      Effect.gen(function* () {
        const repo = yield* SalesInvoiceRepo
        const tenant = yield* storedTenant
        const contact = yield* storedContact(tenant, "Acme Builders")
        const invoice = yield* storedSalesInvoice(contact, { reference: "PO 1" })
        const second = yield* storedSalesInvoice(contact, { subtotal: 5000, vat: 0, cisDeduction: 0 })
        const pay = (of: SalesInvoice, date: string) =>
          Effect.tap(
            newPayment(of, { date, amount: 100, cisDeduction: of.cisDeduction === 0 ? 0 : 20 }),
            repo.addPayment
          )
        const before = yield* pay(invoice, "2026-04-30")
        const first = yield* pay(second, "2026-05-01")
        const sameDay = yield* pay(invoice, "2026-05-01")
        const last = yield* pay(invoice, "2026-05-31")
        yield* pay(second, "2026-06-01")
        yield* Effect.flatMap(ContactRepo, (contacts) =>
          contacts.update(new Contact({ ...contact, name: "Acme Renamed", updatedAt: at(9) }))
        )
        const report = yield* repo.paymentsBetween(tenant.id, "2026-05-01", "2026-05-31")
        expect(report.map((r) => r.payment)).toEqual(
          [first, sameDay].sort((a, b) => (a.id < b.id ? -1 : 1)).concat(last)
        )
        const row = report.find((r) => r.payment.id === last.id)
        expect(row).toEqual({
          payment: last,
          invoice: new SalesInvoice({ ...invoice, amountPaid: 300 }),
          contactName: "Acme Renamed"
        })
        expect((yield* repo.paymentsBetween(tenant.id, "2026-04-30", "2026-04-30")).map((r) => r.payment)).toEqual([
          before
        ])
        expect(yield* repo.paymentsBetween(tenant.id, "2026-07-01", "2026-12-31")).toEqual([])
        const other = yield* storedTenant
        expect(yield* repo.paymentsBetween(other.id, "2000-01-01", "2099-12-31")).toEqual([])
      })
  )

  it.effect("finds the payments from given customers dated from and to inclusive, by date then id", () =>
    Effect.gen(function* () {
      const repo = yield* SalesInvoiceRepo
      const tenant = yield* storedTenant
      const acme = yield* storedContact(tenant, "Acme Builders")
      const bob = yield* storedContact(tenant, "Bob Builders")
      const carl = yield* storedContact(tenant, "Carl Builders")
      const pay = (of: SalesInvoice, date: string, cisDeduction: number) =>
        Effect.tap(newPayment(of, { date, amount: 100, cisDeduction }), repo.addPayment)
      const acmeInvoice = yield* storedSalesInvoice(acme)
      const bobInvoice = yield* storedSalesInvoice(bob)
      const carlInvoice = yield* storedSalesInvoice(carl)
      yield* pay(acmeInvoice, "2026-05-05", 1)
      const acmeFirst = yield* pay(acmeInvoice, "2026-05-06", 2)
      const bobSameDay = yield* pay(bobInvoice, "2026-05-06", 3)
      yield* pay(carlInvoice, "2026-05-20", 4)
      const acmeLast = yield* pay(acmeInvoice, "2026-06-05", 5)
      yield* pay(bobInvoice, "2026-06-06", 6)

      const found = yield* repo.paymentsFromContacts(tenant.id, [acme.id, bob.id], "2026-05-06", "2026-06-05")
      const sameDay = [
        { contactId: acme.id, payment: acmeFirst },
        { contactId: bob.id, payment: bobSameDay }
      ].sort((a, b) => (a.payment.id < b.payment.id ? -1 : 1))
      expect(found).toEqual([...sameDay, { contactId: acme.id, payment: acmeLast }])
      expect(yield* repo.paymentsFromContacts(tenant.id, [], "2026-01-01", "2026-12-31")).toEqual([])
      const other = yield* storedTenant
      expect(yield* repo.paymentsFromContacts(other.id, [acme.id, bob.id], "2000-01-01", "2099-12-31")).toEqual([])
    })
  )

  it.effect.prop(
    "reports exactly the payments whose date lies in the period, ordered by date then id",
    {
      dates: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
      from: fc.integer({ min: 1, max: 9 }),
      span: fc.integer({ min: 0, max: 8 })
    },
    ({ dates, from, span }) =>
      Effect.gen(function* () {
        const repo = yield* SalesInvoiceRepo
        const tenant = yield* storedTenant
        const invoice = yield* storedSalesInvoice(yield* storedContact(tenant), { subtotal: 1_000_000 })
        const day = (d: number) => `2026-05-0${d}`
        const payments = yield* Effect.forEach(dates, (d) =>
          Effect.tap(newPayment(invoice, { date: day(d), amount: 1, cisDeduction: 0 }), repo.addPayment)
        )
        const to = Math.min(9, from + span)
        const expected = payments
          .filter((p) => p.date >= day(from) && p.date <= day(to))
          .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1))
        const report = yield* repo.paymentsBetween(tenant.id, day(from), day(to))
        expect(report.map((r) => r.payment)).toEqual(expected)
      }),
    { fastCheck: { numRuns: 15 } }
  )
}
