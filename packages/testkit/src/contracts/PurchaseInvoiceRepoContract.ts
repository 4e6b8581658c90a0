import { PurchaseInvoice } from "@cisbook/core/invoices/PurchaseInvoice"
import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import type { InvoiceListQuery } from "@cisbook/core/invoices/InvoiceQuery"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at, type ContractIt, storedTenant } from "./Fixtures.js"
import { newPurchaseInvoice, newPurchasePayment, storedContact, storedPurchaseInvoice } from "./InvoiceFixtures.js"

const page: InvoiceListQuery = { offset: 0, limit: 50, contactId: null }

export const purchaseInvoiceRepoContract = (it: ContractIt) => {
  it.effect("keeps every member of an invoice, found by tenant and id only", () =>
    Effect.gen(function* () {
      const repo = yield* PurchaseInvoiceRepo
      const tenant = yield* storedTenant
      const invoice = yield* storedPurchaseInvoice(yield* storedContact(tenant), {
        reference: "Job 12",
        subtotal: 1,
        vat: 99_999_999_999,
        cisDeduction: 1,
        materials: 1,
        amountPaid: 99_999_999_999,
        createdAt: at(4)
      })
      expect(yield* repo.findById(tenant.id, invoice.id)).toEqual(Option.some(invoice))
      const other = yield* storedTenant
      expect(yield* repo.findById(other.id, invoice.id)).toEqual(Option.none())
    })
  )

  it.effect("takes a number once per supplier: a second is DuplicateKey number; another supplier may use it", () =>
    Effect.gen(function* () {
      const repo = yield* PurchaseInvoiceRepo
      const tenant = yield* storedTenant
      const supplier = yield* storedContact(tenant)
      yield* storedPurchaseInvoice(supplier, { number: "42" })
      const again = yield* newPurchaseInvoice(supplier, { number: "42" })
      expect(yield* Effect.flip(repo.insert(again))).toMatchObject({ _tag: "DuplicateKey", key: "number" })
      yield* storedPurchaseInvoice(yield* storedContact(tenant), { number: "42" })
      expect((yield* repo.list(tenant.id, page)).totalCount).toBe(2)
    })
  )

  it.effect("lists newest issue date first, paged and by contact, one tenant's only", () =>
    Effect.gen(function* () {
      const repo = yield* PurchaseInvoiceRepo
      const tenant = yield* storedTenant
      const a = yield* storedContact(tenant)
      const b = yield* storedContact(tenant)
      const i1 = yield* storedPurchaseInvoice(a, { issueDate: "2026-01-01" })
      const i2 = yield* storedPurchaseInvoice(b, { issueDate: "2026-02-01", createdAt: at(1) })
      const i3 = yield* storedPurchaseInvoice(a, { issueDate: "2026-02-01", createdAt: at(2) })
      const ids = (query: Partial<typeof page>) =>
        Effect.map(repo.list(tenant.id, { ...page, ...query }), (p) => [p.totalCount, p.items.map((i) => i.id)])
      expect(yield* ids({})).toEqual([3, [i3.id, i2.id, i1.id]])
      expect(yield* ids({ offset: 2, limit: 1 })).toEqual([3, [i1.id]])
      expect(yield* ids({ contactId: a.id })).toEqual([2, [i3.id, i1.id]])
      const other = yield* storedTenant
      expect(yield* repo.list(other.id, page)).toEqual({ items: [], totalCount: 0 })
    })
  )

  it.effect("keeps a plain supplier's invoice: no materials, no treatment", () =>
    Effect.gen(function* () {
      const repo = yield* PurchaseInvoiceRepo
      const tenant = yield* storedTenant
      const invoice = yield* storedPurchaseInvoice(yield* storedContact(tenant), {
        materials: 0,
        taxTreatment: null,
        cisDeduction: 0
      })
      expect(yield* repo.findByIdForUpdate(tenant.id, invoice.id)).toEqual(Option.some(invoice))
    })
  )

  it.effect(
    "adds a payment to its invoice's amount paid with its shares, and lists payments in the order recorded",
    () =>
      Effect.gen(function* () {
        const repo = yield* PurchaseInvoiceRepo
        const tenant = yield* storedTenant
        const invoice = yield* storedPurchaseInvoice(yield* storedContact(tenant))
        const first = yield* newPurchasePayment(invoice, { date: "2026-05-03", createdAt: at(1) })
        const second = yield* newPurchasePayment(invoice, {
          date: "2026-05-01",
          amount: 110000,
          grossAmount: 130952,
          materials: 26190,
          deducted: 20952,
          reference: "BACS 9",
          createdAt: at(2)
        })
        yield* repo.addPayment(first)
        yield* repo.addPayment(second)
        expect(yield* repo.payments(tenant.id, invoice.id)).toEqual([first, second])
        expect(yield* repo.findById(tenant.id, invoice.id)).toEqual(
          Option.some(new PurchaseInvoice({ ...invoice, amountPaid: 210000 }))
        )
        const other = yield* storedTenant
        expect(yield* repo.payments(other.id, invoice.id)).toEqual([])
        expect(yield* repo.findById(other.id, invoice.id)).toEqual(Option.none())
      })
  )
}
