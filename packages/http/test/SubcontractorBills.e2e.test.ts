import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"
import { assert, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { contractorTenant as contractor } from "./ContractorTenant.js"
import { e2e, raw, SqlTestPorts } from "./E2E.js"

// HMRC's worked figures (CISR15100): £2,567 gross of which £367 materials, £2,200 liable.
const bill = {
  contact: "johnsmit",
  number: "JS-0012",
  issueDate: "2026-05-01",
  dueDate: "2026-05-31",
  subtotal: 2567,
  vat: 0,
  materials: 367
}

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("CIS subcontractors' bills and payments over HTTP", (it) => {
  it.effect("works out the deduction at the verified treatment, and pays it with the shares of each payment", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* contractor("sbpay")
      const url = `/tenants/${tenant}/purchase-invoices`
      const net = yield* raw(key, "POST", url, bill)
      expect(net).toMatchObject({
        status: 201,
        body: { cisDeduction: 440, materials: 367, taxTreatment: "Net", amountDue: 2127, status: "Open" }
      })
      const unmatched = yield* api.purchaseInvoices.createPurchaseInvoice({
        path: { tenant },
        payload: { ...bill, contact: "ACMEROOF", subtotal: 256700, materials: 36700, vat: 0, cisDeduction: 66000 }
      })
      expect([unmatched.cisDeduction, unmatched.taxTreatment]).toEqual([66000, "Unmatched"])

      const payments = `${url}/${net.body?.id}/payments`
      const half = yield* raw(key, "POST", payments, { date: "2026-05-10", amount: 1063.5, reference: "BACS 1" })
      expect(half).toMatchObject({
        status: 201,
        body: {
          date: "2026-05-10",
          amount: 1063.5,
          reference: "BACS 1",
          grossAmount: 1283.5,
          materials: 183.5,
          deducted: 220
        }
      })
      const over = yield* raw(key, "POST", payments, { date: "2026-05-11", amount: 1063.51 })
      expect(over).toMatchObject({ status: 400, body: { errors: { amount: [expect.stringContaining("1063.50")] } } })
      const rest = yield* api.purchaseInvoices.createPurchaseInvoicePayment({
        path: { tenant, invoice: String(net.body?.id) },
        payload: { date: "2026-05-11", amount: 106350 }
      })
      expect([rest.grossAmount, rest.materials, rest.deducted]).toEqual([128350, 18350, 22000])
      const paid = yield* api.purchaseInvoices.getPurchaseInvoice({ path: { tenant, invoice: String(net.body?.id) } })
      expect(paid).toMatchObject({ status: "Paid", amountPaid: 212700, amountDue: 0 })
      expect(paid.payments?.map((p) => [p.date, p.grossAmount, p.materials, p.deducted])).toEqual([
        ["2026-05-10", 128350, 18350, 22000],
        ["2026-05-11", 128350, 18350, 22000]
      ])
      const list = yield* api.purchaseInvoices.listPurchaseInvoices({ path: { tenant }, urlParams: {} })
      expect(list.items.every((i) => i.payments === undefined)).toBe(true)
    })
  )

  it.effect("refuses an unverified subcontractor (contact) and a deduction other than the figure (cisDeduction)", () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* contractor("sbrules")
      const url = `/tenants/${tenant}/purchase-invoices`
      const unverified = yield* raw(key, "POST", url, { ...bill, contact: "BLOGGSSO" })
      expect(unverified).toMatchObject({
        status: 400,
        body: { errors: { contact: [expect.stringContaining("not verified")] } }
      })
      const wrong = yield* raw(key, "POST", url, { ...bill, cisDeduction: 440.01 })
      expect(wrong.status).toBe(400)
      expect(Object.keys(wrong.body?.errors)).toEqual(["cisDeduction"])
      expect(wrong.body?.detail).toContain("440.00")
      expect((yield* raw(key, "GET", url)).body?.totalCount).toBe(0)
    })
  )

  it.effect("refuses a payment dated in a tax month whose return is filed with 409 naming date", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* contractor("sbfiled")
      const created = yield* api.purchaseInvoices.createPurchaseInvoice({
        path: { tenant },
        payload: { ...bill, subtotal: 256700, materials: 36700, vat: 0 }
      })
      yield* api.monthlyReturns.createMonthlyReturn({
        path: { tenant },
        payload: {
          periodEnd: "2026-06-05",
          lines: [{ contact: "JOHNSMIT", grossAmount: 100, materials: 0, deducted: 0 }],
          declarations: allDeclared
        }
      })
      const payments = `/tenants/${tenant}/purchase-invoices/${created.id}/payments`
      const refused = yield* raw(key, "POST", payments, { date: "2026-06-05", amount: 10 })
      expect(refused.status).toBe(409)
      expect(refused.body?.detail).toContain("date 2026-06-05 is in the tax month ending 2026-06-05")
      const sdk = yield* Effect.flip(
        api.purchaseInvoices.createPurchaseInvoicePayment({
          path: { tenant, invoice: created.id },
          payload: { date: "2026-05-06", amount: 1000 }
        })
      )
      assert(sdk._tag === "Conflict")
      expect((yield* raw(key, "POST", payments, { date: "2026-06-06", amount: 10 })).status).toBe(201)
      const got = yield* api.purchaseInvoices.getPurchaseInvoice({ path: { tenant, invoice: created.id } })
      expect(got.payments?.map((p) => p.date)).toEqual(["2026-06-06"])
    })
  )
})

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("returns drafted from payments over HTTP", (it) => {
  it.effect("drafts the month's return from the payments, and files it as it stands", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* contractor("sbdraft")
      const created = yield* api.purchaseInvoices.createPurchaseInvoice({
        path: { tenant },
        payload: { ...bill, subtotal: 256700, materials: 36700, vat: 0 }
      })
      const paid = yield* api.purchaseInvoices.createPurchaseInvoicePayment({
        path: { tenant, invoice: created.id },
        payload: { date: "2026-05-06", amount: 212700 }
      })
      const res = yield* raw(key, "GET", `/tenants/${tenant}/monthly-returns/draft?periodEnd=2026-06-05`)
      expect(res).toMatchObject({
        status: 200,
        body: {
          periodEnd: "2026-06-05",
          dueDate: "2026-06-19",
          nilReturn: false,
          totals: { grossAmount: 2567, materials: 367, deducted: 440 },
          warnings: []
        }
      })
      expect(res.body?.lines).toEqual([
        expect.objectContaining({
          contact: "JOHNSMIT",
          taxTreatment: "Net",
          grossAmount: 2567,
          payments: [
            {
              purchaseInvoice: created.id,
              invoiceNumber: "JS-0012",
              payment: paid.id,
              date: "2026-05-06",
              amount: 2127,
              grossAmount: 2567,
              materials: 367,
              deducted: 440
            }
          ]
        })
      ])
      const bad = yield* raw(key, "GET", `/tenants/${tenant}/monthly-returns/draft?periodEnd=2026-06-06`)
      expect(bad).toMatchObject({ status: 400, body: { errors: { periodEnd: [expect.any(String)] } } })
      const nil = yield* api.monthlyReturns.getMonthlyReturnDraft({
        path: { tenant },
        urlParams: { periodEnd: "2026-07-05" }
      })
      expect([nil.nilReturn, nil.lines]).toEqual([true, []])

      const mixed = yield* raw(key, "POST", `/tenants/${tenant}/monthly-returns`, {
        periodEnd: "2026-06-05",
        fromPayments: true,
        nilReturn: true
      })
      expect(mixed).toMatchObject({ status: 400, body: { errors: { nilReturn: [expect.any(String)] } } })
      const filed = yield* api.monthlyReturns.createMonthlyReturn({
        path: { tenant },
        payload: { periodEnd: "2026-06-05", fromPayments: true, declarations: allDeclared }
      })
      expect(filed.lines.map((l) => [l.contact, l.grossAmount, l.materials, l.deducted, l.payments])).toEqual([
        ["JOHNSMIT", 256700, 36700, 44000, [paid.id]]
      ])
    })
  )
})
