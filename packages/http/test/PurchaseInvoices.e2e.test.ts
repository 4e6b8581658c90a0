import { assert, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { e2e, raw, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

/** A user owning a new tenant with a supplier JOHNSMIT (not a CIS subcontractor) and a customer ACME. */
const owner = (name: string) =>
  Effect.gen(function* () {
    const user = yield* signUp(name)
    const tenant = uniqueTenantCode(name)
    yield* user.api.tenants.createTenant({ payload: { code: tenant, name: `${name} Ltd` } })
    yield* user.api.contacts.createContact({
      path: { tenant },
      payload: { name: "John Smith", isSupplier: true }
    })
    yield* user.api.contacts.createContact({ path: { tenant }, payload: { name: "Acme", isCustomer: true } })
    return { ...user, tenant }
  })

const invoice = {
  contact: "johnsmit",
  number: "JS-0012",
  issueDate: "2026-04-10",
  dueDate: "2026-04-30",
  subtotal: 2500,
  vat: 0,
  cisDeduction: 400.4
}

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("purchase invoices over HTTP", (it) => {
  it.effect("answers 201 with the PurchaseInvoiceDto in pounds, gets it, and lists newest issue date first", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* owner("picreate")
      const res = yield* raw(key, "POST", `/tenants/${tenant}/purchase-invoices`, invoice)
      expect(res.status).toBe(201)
      expect(res.body).toEqual({
        id: expect.any(String),
        number: "JS-0012",
        contact: "JOHNSMIT",
        issueDate: "2026-04-10",
        dueDate: "2026-04-30",
        reference: null,
        subtotal: 2500,
        vat: 0,
        total: 2500,
        cisDeduction: 400.4,
        materials: 0,
        taxTreatment: null,
        amountPaid: 0,
        amountDue: 2099.6,
        status: "Open",
        createdAt: expect.stringMatching(/Z$/)
      })
      expect(yield* raw(key, "GET", `/tenants/${tenant}/purchase-invoices/${res.body?.id}`)).toMatchObject({
        status: 200,
        body: { ...res.body, payments: [] }
      })
      const later = yield* api.purchaseInvoices.createPurchaseInvoice({
        path: { tenant },
        payload: { ...invoice, contact: "JOHNSMIT", number: "JS-0013", issueDate: "2026-04-20", cisDeduction: 0 }
      })
      expect(later).toMatchObject({ subtotal: 2500, cisDeduction: 0 })
      const page = yield* api.purchaseInvoices.listPurchaseInvoices({
        path: { tenant },
        urlParams: { contact: "johnsmit" }
      })
      expect(page).toMatchObject({ totalCount: 2, offset: 0, limit: 10 })
      expect(page.items.map((i) => i.number)).toEqual(["JS-0013", "JS-0012"])
      expect(
        (yield* api.purchaseInvoices.listPurchaseInvoices({ path: { tenant }, urlParams: { contact: "ACME" } }))
          .totalCount
      ).toBe(0)
    })
  )

  it.effect("needs a supplier and a number unique among its invoices (409), and refuses bad amounts with 400", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* owner("pirules")
      const url = `/tenants/${tenant}/purchase-invoices`
      expect((yield* raw(key, "POST", url, invoice)).status).toBe(201)
      const again = yield* raw(key, "POST", url, invoice)
      expect(again).toMatchObject({ status: 409, body: { title: "Conflict" } })
      expect(again.body?.detail).toBe(`JOHNSMIT already has a purchase invoice numbered JS-0012 in ${tenant}.`)
      // Another supplier may use the same number.
      yield* api.contacts.createContact({ path: { tenant }, payload: { name: "Bricks", isSupplier: true } })
      expect((yield* raw(key, "POST", url, { ...invoice, contact: "BRICKS" })).status).toBe(201)
      const customer = yield* raw(key, "POST", url, { ...invoice, contact: "ACME", number: "A-1" })
      expect(customer).toMatchObject({
        status: 400,
        body: { errors: { contact: [expect.stringContaining("not a supplier")] } }
      })
      const bad = yield* raw(key, "POST", url, { ...invoice, number: " ", subtotal: 1.234, cisDeduction: 3000 })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body?.errors).sort()).toEqual(["number", "subtotal"])
      const deduction = yield* raw(key, "POST", url, { ...invoice, number: "X", cisDeduction: 2500.01 })
      expect(deduction.body?.errors).toEqual({
        cisDeduction: ["Must not be more than subtotal: the deduction is taken from the amount net of VAT"]
      })
      expect((yield* api.purchaseInvoices.listPurchaseInvoices({ path: { tenant }, urlParams: {} })).totalCount).toBe(2)
    })
  )

  it.effect("keeps the supplier role and the contact while it has purchase invoices (409)", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* owner("piinuse")
      yield* api.purchaseInvoices.createPurchaseInvoice({ path: { tenant }, payload: { ...invoice, cisDeduction: 0 } })
      const before = yield* api.contacts.getContact({ path: { tenant, code: "JOHNSMIT" } })
      const noSupplier = yield* raw(key, "PUT", `/tenants/${tenant}/contacts/johnsmit`, {
        name: "John Smith",
        isCustomer: true,
        isSupplier: false,
        isCisSubcontractor: false,
        vatRegistered: false
      })
      expect(noSupplier.status).toBe(409)
      expect(noSupplier.body?.detail).toContain("purchase invoices")
      const deleted = yield* Effect.flip(api.contacts.deleteContact({ path: { tenant, code: "JOHNSMIT" } }))
      assert(deleted._tag === "Conflict")
      expect(deleted.detail).toBe("JOHNSMIT has purchase invoices, so it cannot be deleted.")
      expect(yield* api.contacts.getContact({ path: { tenant, code: "JOHNSMIT" } })).toEqual(before)
    })
  )

  it.effect("never shows another tenant's purchase invoices", () =>
    Effect.gen(function* () {
      const a = yield* owner("piisoa")
      const b = yield* owner("piisob")
      const mine = yield* a.api.purchaseInvoices.createPurchaseInvoice({
        path: { tenant: a.tenant },
        payload: { ...invoice, cisDeduction: 0 }
      })
      expect((yield* raw(b.key, "GET", `/tenants/${a.tenant}/purchase-invoices/${mine.id}`)).status).toBe(403)
      expect((yield* raw(b.key, "GET", `/tenants/${a.tenant}/purchase-invoices`)).status).toBe(403)
      expect((yield* raw(b.key, "POST", `/tenants/${a.tenant}/purchase-invoices`, invoice)).status).toBe(403)
      expect((yield* raw(b.key, "GET", `/tenants/${b.tenant}/purchase-invoices/${mine.id}`)).status).toBe(404)
      expect((yield* raw(b.key, "GET", `/tenants/${b.tenant}/purchase-invoices/nope`)).status).toBe(404)
      expect(
        (yield* b.api.purchaseInvoices.listPurchaseInvoices({ path: { tenant: b.tenant }, urlParams: {} })).items
      ).toEqual([])
    })
  )
})
