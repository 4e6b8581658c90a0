import { newReturn } from "@cisbook/testkit/contracts/MonthlyReturnRepoContract"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, FastCheck as fc } from "effect"
import { Conflict, ValidationFailed } from "../../src/Errors.js"
import type { NewPurchaseInvoice } from "../../src/invoices/InvoiceInput.js"
import { PurchaseInvoices } from "../../src/invoices/PurchaseInvoices.js"
import { MonthlyReturnRepo } from "../../src/returns/MonthlyReturnRepo.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { asMember, asUser, aUser, testApp } from "../TestApp.js"
import { subcontractor } from "./VerifiedSubcontractor.js"

const TENANT = "acme-builders"

const setUp = Effect.gen(function* () {
  const owner = yield* aUser("owner@example.com")
  const { tenant } = yield* (yield* Tenants)
    .create({ code: TenantCode.make(TENANT), name: "Acme", email: null })
    .pipe(asUser(owner))
  const net = yield* subcontractor(owner, TENANT, "Bricks", "Net")
  const unmatched = yield* subcontractor(owner, TENANT, "Stones", "Unmatched")
  const gross = yield* subcontractor(owner, TENANT, "Slates", "Gross")
  const unverified = yield* subcontractor(owner, TENANT, "Tiles", null)
  yield* (yield* Contacts).create({ name: "Timber Yard", isSupplier: true }).pipe(asMember(owner, TENANT))
  const as = asMember(owner, TENANT)
  return { owner, tenant, invoices: yield* PurchaseInvoices, net, unmatched, gross, unverified, as } as const
})

// HMRC's worked figures (CISR15100): £2,567 gross of which £367 materials, so £2,200 liable.
const bill = (contact: string, fields: Partial<NewPurchaseInvoice> = {}): NewPurchaseInvoice => ({
  contact,
  number: "B-1",
  issueDate: "2026-05-01",
  dueDate: "2026-05-31",
  subtotal: 256700,
  vat: 0,
  materials: 36700,
  ...fields
})

describe("A CIS subcontractor's bill", () => {
  it.effect("carries the deduction the contractor must make: HMRC's £440.00 at 20 %, £660.00 at 30 %, 0 gross", () =>
    Effect.gen(function* () {
      const { as, gross, invoices, net, unmatched } = yield* setUp
      const at20 = yield* invoices.create(bill(net.code)).pipe(as)
      expect(at20).toMatchObject({ cisDeduction: 44000, materials: 36700, taxTreatment: "Net", amountDue: 212700 })
      expect(at20.status).toBe("Open")
      const at30 = yield* invoices.create(bill(unmatched.code, { cisDeduction: 66000 })).pipe(as)
      expect([at30.cisDeduction, at30.taxTreatment]).toEqual([66000, "Unmatched"])
      const at0 = yield* invoices.create(bill(gross.code)).pipe(as)
      expect([at0.cisDeduction, at0.taxTreatment]).toEqual([0, "Gross"])
      // Rounded down to the penny: 20 % of 0.09 is 0.018.
      const tiny = yield* invoices.create(bill(net.code, { number: "B-2", subtotal: 9, materials: 0 })).pipe(as)
      expect(tiny.cisDeduction).toBe(1)
      const odd = yield* invoices.create(bill(unmatched.code, { number: "B-3", subtotal: 1003, materials: 0 })).pipe(as)
      expect(odd.cisDeduction).toBe(300)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "needs the subcontractor verified, materials within the subtotal, and a given deduction equal to the figure",
    () =>
      Effect.gen(function* () {
        const { as, invoices, net, unverified } = yield* setUp
        const notVerified = yield* Effect.flip(invoices.create(bill(unverified.code)).pipe(as))
        assert(notVerified instanceof ValidationFailed)
        expect(Object.keys(notVerified.errors)).toEqual(["contact"])
        const wrong = yield* Effect.flip(invoices.create(bill(net.code, { cisDeduction: 44001 })).pipe(as))
        assert(wrong instanceof ValidationFailed)
        expect(Object.keys(wrong.errors)).toEqual(["cisDeduction"])
        expect(wrong.detail).toContain("440.00")
        const materials = yield* Effect.flip(invoices.create(bill(net.code, { materials: 256701 })).pipe(as))
        assert(materials instanceof ValidationFailed)
        expect(Object.keys(materials.errors)).toEqual(["materials"])
        expect((yield* invoices.list({}).pipe(as)).totalCount).toBe(0)
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("another supplier's bill has no materials, no treatment, and its deduction as given", () =>
    Effect.gen(function* () {
      const { as, invoices } = yield* setUp
      const plain = yield* invoices.create(bill("TIMBERYA", { materials: undefined, cisDeduction: 100 })).pipe(as)
      expect([plain.materials, plain.taxTreatment, plain.cisDeduction]).toEqual([0, null, 100])
      const withMaterials = yield* Effect.flip(invoices.create(bill("TIMBERYA", { number: "B-2" })).pipe(as))
      assert(withMaterials instanceof ValidationFailed)
      expect(Object.keys(withMaterials.errors)).toEqual(["materials"])
    }).pipe(Effect.provide(testApp()))
  )
})

describe("A purchase invoice's payments", () => {
  it.effect("carry their shares by the sales rule; the completing payment takes the remainders", () =>
    Effect.gen(function* () {
      const { as, invoices, net } = yield* setUp
      const invoice = yield* invoices.create(bill(net.code)).pipe(as)
      // 2,127.00 payable: 1,063.50 is half of it.
      const half = yield* invoices
        .addPayment(invoice.id, { date: "2026-05-10", amount: 106350, reference: "" })
        .pipe(as)
      expect(half).toMatchObject({
        amount: 106350,
        grossAmount: 128350,
        materials: 18350,
        deducted: 22000,
        reference: null
      })
      const third = yield* invoices.addPayment(invoice.id, { date: "2026-05-11", amount: 33333 }).pipe(as)
      // 256,700 × 33,333 / 212,700 = 40,228.4…; 36,700 × … = 5,751.4…; 44,000 × … = 6,895.4…
      expect([third.grossAmount, third.materials, third.deducted]).toEqual([40228, 5751, 6895])
      const over = yield* Effect.flip(invoices.addPayment(invoice.id, { date: "2026-05-12", amount: 73018 }).pipe(as))
      assert(over instanceof ValidationFailed)
      expect(Object.keys(over.errors)).toEqual(["amount"])
      const rest = yield* invoices.addPayment(invoice.id, { date: "2026-05-12", amount: 73017 }).pipe(as)
      expect([rest.grossAmount, rest.materials, rest.deducted]).toEqual([
        256700 - 128350 - 40228,
        36700 - 18350 - 5751,
        44000 - 22000 - 6895
      ])
      const { invoice: paid, payments } = yield* invoices.get(invoice.id).pipe(as)
      expect([paid.status, paid.amountPaid, paid.amountDue]).toEqual(["Paid", 212700, 0])
      expect(payments.map((p) => p.id)).toEqual([half.id, third.id, rest.id])
      const nothingDue = yield* Effect.flip(invoices.addPayment(invoice.id, { date: "2026-05-13", amount: 1 }).pipe(as))
      assert(nothingDue instanceof ValidationFailed)
      expect(nothingDue.detail).toBe("B-1 is paid: nothing is due on it.")
    }).pipe(Effect.provide(testApp()))
  )

  it.effect.prop(
    "a fully paid bill's payment shares add up to its figures, for any split",
    [
      fc.integer({ min: 1, max: 5_000_000 }).chain((subtotal) =>
        fc.record({
          subtotal: fc.constant(subtotal),
          materials: fc.integer({ min: 0, max: subtotal }),
          vat: fc.integer({ min: 0, max: 1_000_000 }),
          treatment: fc.constantFrom("Net" as const, "Unmatched" as const, "Gross" as const),
          cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 })
        })
      )
    ],
    ([{ cuts, materials, subtotal, treatment, vat }]) =>
      Effect.gen(function* () {
        const { as, gross, invoices, net, unmatched } = yield* setUp
        const contact = { Net: net, Unmatched: unmatched, Gross: gross }[treatment]
        const invoice = yield* invoices.create(bill(contact.code, { subtotal, materials, vat })).pipe(as)
        const payable = invoice.amountPayable
        const points = [...new Set(cuts.map((c) => Math.floor(c * payable)).filter((p) => p > 0 && p < payable))]
        points.sort((a, b) => a - b)
        const amounts = [...points, payable].map((p, i) => p - (i === 0 ? 0 : points[i - 1]!))
        for (const [i, amount] of amounts.entries())
          yield* invoices
            .addPayment(invoice.id, { date: `2026-05-${String(10 + i).padStart(2, "0")}`, amount })
            .pipe(as)
        const { payments } = yield* invoices.get(invoice.id).pipe(as)
        const sum = (key: "grossAmount" | "materials" | "deducted") => payments.reduce((s, p) => s + p[key], 0)
        expect([sum("grossAmount"), sum("materials"), sum("deducted")]).toEqual([
          invoice.subtotal,
          invoice.materials,
          invoice.cisDeduction
        ])
        for (const p of payments) expect(Math.min(p.grossAmount, p.materials, p.deducted)).toBeGreaterThanOrEqual(0)
      }).pipe(Effect.provide(testApp())),
    { fastCheck: { numRuns: 25 } }
  )

  it.effect(
    "to a CIS subcontractor, dated in a month whose return is filed, is 409 naming date; the 5th and 6th decide",
    () =>
      Effect.gen(function* () {
        const { as, invoices, net, tenant } = yield* setUp
        const invoice = yield* invoices.create(bill(net.code)).pipe(as)
        // The tax month 6 May to 5 June is filed.
        yield* (yield* MonthlyReturnRepo).insert(yield* newReturn(tenant, "2026-06-05", 0))
        for (const date of ["2026-05-06", "2026-06-05"]) {
          const refused = yield* Effect.flip(invoices.addPayment(invoice.id, { date, amount: 100 }).pipe(as))
          assert(refused instanceof Conflict)
          expect(refused.detail).toContain(
            `date ${date} is in the tax month ending 2026-06-05, whose return is Submitted`
          )
        }
        yield* invoices.addPayment(invoice.id, { date: "2026-05-05", amount: 100 }).pipe(as)
        yield* invoices.addPayment(invoice.id, { date: "2026-06-06", amount: 100 }).pipe(as)
        // A plain supplier's bill goes on no return: any date is fine.
        const plain = yield* invoices.create(bill("TIMBERYA", { materials: 0 })).pipe(as)
        yield* invoices.addPayment(plain.id, { date: "2026-05-20", amount: 100 }).pipe(as)
        expect((yield* invoices.get(invoice.id).pipe(as)).payments.map((p) => p.date)).toEqual([
          "2026-05-05",
          "2026-06-06"
        ])
      }).pipe(Effect.provide(testApp()))
  )
})
