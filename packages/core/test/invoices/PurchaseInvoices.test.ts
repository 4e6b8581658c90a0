import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Conflict, NotFound, ValidationFailed } from "../../src/Errors.js"
import type { NewPurchaseInvoice } from "../../src/invoices/InvoiceInput.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { PurchaseInvoices } from "../../src/invoices/PurchaseInvoices.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { asMember, asUser, aUser, testApp } from "../TestApp.js"

const TENANT = "acme-builders"

const setUp = Effect.gen(function* () {
  const contacts = yield* Contacts
  const invoices = yield* PurchaseInvoices
  const owner = yield* aUser("owner@example.com")
  yield* (yield* Tenants).create({ code: TenantCode.make(TENANT), name: "Acme", email: null }).pipe(asUser(owner))
  yield* contacts.create({ name: "Bricks", isSupplier: true }).pipe(asMember(owner, TENANT))
  yield* contacts.create({ name: "Stones", isSupplier: true }).pipe(asMember(owner, TENANT))
  yield* contacts.create({ name: "Client", isCustomer: true }).pipe(asMember(owner, TENANT))
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
      const created = yield* invoices.create({ ...invoice, reference: "" }).pipe(asMember(owner, TENANT))
      expect(created).toMatchObject({ number: "B-100", contactCode: "BRICKS", total: 300000, reference: null })
      expect(yield* invoices.get(created.id).pipe(asMember(owner, TENANT))).toEqual({ invoice: created, payments: [] })
      expect(yield* Effect.flip(invoices.create(invoice).pipe(asMember(owner, TENANT)))).toEqual(
        new Conflict({ detail: `BRICKS already has a purchase invoice numbered B-100 in ${TENANT}.` })
      )
      const stones = yield* invoices
        .create({ ...invoice, contact: "STONES", issueDate: "2026-04-20" })
        .pipe(asMember(owner, TENANT))
      const page = yield* invoices.list({}).pipe(asMember(owner, TENANT))
      expect(page.items.map((i) => i.id)).toEqual([stones.id, created.id])
      expect((yield* invoices.list({ contact: "Bricks" }).pipe(asMember(owner, TENANT))).items).toEqual([created])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("needs a supplier, and refuses a deduction above the subtotal or a due date before the issue date", () =>
    Effect.gen(function* () {
      const { invoices, owner } = yield* setUp
      expect(
        yield* Effect.flip(invoices.create({ ...invoice, contact: "client" }).pipe(asMember(owner, TENANT)))
      ).toEqual(
        ValidationFailed.one("contact", "CLIENT is not a supplier: give it the Supplier role before invoicing it.")
      )
      const rules = yield* Effect.flip(
        invoices.create({ ...invoice, cisDeduction: 250001, dueDate: "2026-04-01" }).pipe(asMember(owner, TENANT))
      )
      assert(rules instanceof ValidationFailed)
      expect(Object.keys(rules.errors).sort()).toEqual(["cisDeduction", "dueDate"])
      expect(yield* Effect.flip(invoices.get("nope").pipe(asMember(owner, TENANT)))).toBeInstanceOf(NotFound)
      expect((yield* invoices.list({}).pipe(asMember(owner, TENANT))).totalCount).toBe(0)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("keep the supplier role and the contact while they exist", () =>
    Effect.gen(function* () {
      const { contacts, invoices, owner } = yield* setUp
      yield* invoices.create(invoice).pipe(asMember(owner, TENANT))
      const conflict = yield* Effect.flip(
        contacts
          .update("BRICKS", {
            name: "Bricks",
            isCustomer: true,
            isSupplier: false,
            isCisSubcontractor: false,
            vatRegistered: false
          })
          .pipe(asMember(owner, TENANT))
      )
      expect(conflict).toEqual(
        new Conflict({ detail: "BRICKS cannot lose the role: it has purchase invoices, so it stays a supplier." })
      )
      expect(yield* Effect.flip(contacts.remove("BRICKS").pipe(asMember(owner, TENANT)))).toBeInstanceOf(Conflict)
      // Losing the customer role it never invoiced under is fine.
      yield* contacts.remove("STONES").pipe(asMember(owner, TENANT))
    }).pipe(Effect.provide(testApp()))
  )
})
