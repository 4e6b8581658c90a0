import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Conflict, NotFound, ValidationFailed } from "../../src/Errors.js"
import type { NewPurchaseInvoice } from "../../src/invoices/InvoiceInput.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { PurchaseInvoices } from "../../src/invoices/PurchaseInvoices.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { aUser, testApp } from "../TestApp.js"

const TENANT = "acme-builders"

const setUp = Effect.gen(function* () {
  const contacts = yield* Contacts
  const invoices = yield* PurchaseInvoices
  const owner = yield* aUser("owner@example.com")
  yield* (yield* Tenants).create(owner, { code: TenantCode.make(TENANT), name: "Acme", email: null })
  yield* contacts.create(owner, TENANT, { name: "Bricks", isSupplier: true })
  yield* contacts.create(owner, TENANT, { name: "Stones", isSupplier: true })
  yield* contacts.create(owner, TENANT, { name: "Client", isCustomer: true })
  return { contacts, invoices, owner } as const
})

const invoice: NewPurchaseInvoice = {
  contact: "bricks",
  number: "B-100",
  issueDate: "2026-04-10",
  dueDate: "2026-04-30",
  subtotal: 250000,
  vat: 50000,
  cisDeduction: 40000
}

describe("PurchaseInvoices", () => {
  it.effect("records a supplier's invoice with a number unique among that supplier's invoices", () =>
    Effect.gen(function* () {
      const { invoices, owner } = yield* setUp
      const created = yield* invoices.create(owner, TENANT, { ...invoice, reference: "" })
      expect(created).toMatchObject({ number: "B-100", contactCode: "BRICKS", total: 300000, reference: null })
      expect(yield* invoices.get(owner, TENANT, created.id)).toEqual(created)
      expect(yield* Effect.flip(invoices.create(owner, TENANT, invoice))).toEqual(
        new Conflict({ detail: `BRICKS already has a purchase invoice numbered B-100 in ${TENANT}.` })
      )
      const stones = yield* invoices.create(owner, TENANT, { ...invoice, contact: "STONES", issueDate: "2026-04-20" })
      const page = yield* invoices.list(owner, TENANT, {})
      expect(page.items.map((i) => i.id)).toEqual([stones.id, created.id])
      expect((yield* invoices.list(owner, TENANT, { contact: "Bricks" })).items).toEqual([created])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("needs a supplier, and refuses a deduction above the subtotal or a due date before the issue date", () =>
    Effect.gen(function* () {
      const { invoices, owner } = yield* setUp
      expect(yield* Effect.flip(invoices.create(owner, TENANT, { ...invoice, contact: "client" }))).toEqual(
        ValidationFailed.one("contact", "CLIENT is not a supplier: give it the Supplier role before invoicing it.")
      )
      const rules = yield* Effect.flip(
        invoices.create(owner, TENANT, { ...invoice, cisDeduction: 250001, dueDate: "2026-04-01" })
      )
      assert(rules instanceof ValidationFailed)
      expect(Object.keys(rules.errors).sort()).toEqual(["cisDeduction", "dueDate"])
      expect(yield* Effect.flip(invoices.get(owner, TENANT, "nope"))).toBeInstanceOf(NotFound)
      expect((yield* invoices.list(owner, TENANT, {})).totalCount).toBe(0)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("keep the supplier role and the contact while they exist", () =>
    Effect.gen(function* () {
      const { contacts, invoices, owner } = yield* setUp
      yield* invoices.create(owner, TENANT, invoice)
      const conflict = yield* Effect.flip(
        contacts.update(owner, TENANT, "BRICKS", {
          name: "Bricks",
          isCustomer: true,
          isSupplier: false,
          isCisSubcontractor: false,
          vatRegistered: false
        })
      )
      expect(conflict).toEqual(
        new Conflict({ detail: "BRICKS cannot lose the role: it has purchase invoices, so it stays a supplier." })
      )
      expect(yield* Effect.flip(contacts.remove(owner, TENANT, "BRICKS"))).toBeInstanceOf(Conflict)
      // Losing the customer role it never invoiced under is fine.
      yield* contacts.remove(owner, TENANT, "STONES")
    }).pipe(Effect.provide(testApp()))
  )
})
