import { newReturn } from "@cisbook/testkit/contracts/MonthlyReturnRepoContract"
import { allDeclared, nilDeclared } from "@cisbook/testkit/DeclarationsFixtures"
import { sandboxGateway } from "@cisbook/testkit/CisSchemeFixtures"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Contact, Verification } from "../../src/contacts/Contact.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { HmrcCredentialsSettings } from "../../src/credentials/HmrcCredentialsSettings.js"
import { Conflict, ValidationFailed } from "../../src/Errors.js"
import type { NewPurchaseInvoice } from "../../src/invoices/InvoiceInput.js"
import { PurchaseInvoices } from "../../src/invoices/PurchaseInvoices.js"
import { MonthlyReturn, ReturnLine } from "../../src/returns/MonthlyReturn.js"
import { MonthlyReturnRepo } from "../../src/returns/MonthlyReturnRepo.js"
import { MonthlyReturns } from "../../src/returns/MonthlyReturns.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { subcontractor } from "../invoices/VerifiedSubcontractor.js"
import { asMember, asUser, aUser, testApp } from "../TestApp.js"

const TENANT = "lovelace-builders"

// The clock stands at 2026-11-21: the current tax month ends on 2026-12-05.
const setUp = Effect.gen(function* () {
  const owner = yield* aUser("owner@example.com")
  const { tenant } = yield* (yield* Tenants)
    .create({ code: TenantCode.make(TENANT), name: "Lovelace Builders Ltd", email: null })
    .pipe(asUser(owner))
  const as = asMember(owner, TENANT)
  yield* (yield* TenantSettings)
    .setCisDetails({ type: "Company", tradingName: "Lovelace Builders Ltd", utr: "8456789123" })
    .pipe(as)
  yield* (yield* TenantSettings)
    .setCisScheme({ employerReference: "123/ab 45678", accountsOfficeReference: "123pw12345678" })
    .pipe(as)
  yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(as)
  const net = yield* subcontractor(owner, TENANT, "Bricks", "Net")
  const unmatched = yield* subcontractor(owner, TENANT, "Aardvark Roofing", "Unmatched")
  return {
    as,
    owner,
    tenant,
    net,
    unmatched,
    invoices: yield* PurchaseInvoices,
    returns: yield* MonthlyReturns
  } as const
})

// HMRC's worked figures (CISR15100): £2,567 gross of which £367 materials.
const bill = (contact: string, number: string, fields: Partial<NewPurchaseInvoice> = {}): NewPurchaseInvoice => ({
  contact,
  number,
  issueDate: "2026-05-01",
  dueDate: "2026-05-31",
  subtotal: 256700,
  vat: 0,
  materials: 36700,
  ...fields
})

describe("A return drafted from payments", () => {
  it.effect("has a line per subcontractor paid in the tax month, by payment date from the 6th to the 5th", () =>
    Effect.gen(function* () {
      const { as, invoices, net, returns, unmatched } = yield* setUp
      const atNet = yield* invoices.create(bill(net.code, "B-1")).pipe(as)
      const atHigh = yield* invoices.create(bill(unmatched.code, "A-1")).pipe(as)
      // Paid in full, in the month ending 2026-06-05: 2,127.00 and 1,907.00 payable.
      const paidNet = yield* invoices.addPayment(atNet.id, { date: "2026-05-06", amount: 212700 }).pipe(as)
      const before = yield* invoices.addPayment(atHigh.id, { date: "2026-05-05", amount: 100 }).pipe(as)
      const rest = yield* invoices.addPayment(atHigh.id, { date: "2026-06-05", amount: 190600 }).pipe(as)

      const draft = yield* returns.draft("2026-06-05").pipe(as)
      expect(draft).toMatchObject({ periodEnd: "2026-06-05", dueDate: "2026-06-19", nilReturn: false })
      // By name: Aardvark Roofing before Bricks.
      expect(draft.lines.map((l) => [l.contactCode, l.taxTreatment, l.payments.map((p) => p.payment)])).toEqual([
        [unmatched.code, "Unmatched", [rest.id]],
        [net.code, "Net", [paidNet.id]]
      ])
      expect(draft.lines[1]).toMatchObject({ grossAmount: 256700, materials: 36700, deducted: 44000 })
      expect(draft.lines[0]!.grossAmount + before.grossAmount).toBe(256700)
      expect(draft.lines[0]!.deducted + before.deducted).toBe(66000)
      expect(draft.totals.deducted).toBe(44000 + 66000 - before.deducted)
      expect(draft.warnings).toEqual([])
      const may = yield* returns.draft("2026-05-05").pipe(as)
      expect(may.lines.map((l) => l.payments.map((p) => p.payment))).toEqual([[before.id]])
      expect(yield* returns.draft("2026-07-05").pipe(as)).toMatchObject({ nilReturn: true, lines: [], warnings: [] })
      const future = yield* Effect.flip(returns.draft("2027-01-05").pipe(as))
      assert(future instanceof ValidationFailed)
      expect(Object.keys(future.errors)).toEqual(["periodEnd"])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("warns of a subcontractor to verify again, materials not below gross, and a changed treatment", () =>
    Effect.gen(function* () {
      const { as, invoices, net, returns, tenant, unmatched } = yield* setUp
      const allMaterials = yield* invoices.create(bill(net.code, "B-1", { materials: 256700 })).pipe(as)
      yield* invoices.addPayment(allMaterials.id, { date: "2026-05-20", amount: 1000 }).pipe(as)
      const high = yield* invoices.create(bill(unmatched.code, "A-1")).pipe(as)
      yield* invoices.addPayment(high.id, { date: "2026-05-20", amount: 1000 }).pipe(as)
      // Aardvark registered since (now Net), and was last verified before 6 April 2024 (tax year 2026-27 less two).
      const repo = yield* ContactRepo
      yield* repo.update(
        new Contact({
          ...unmatched,
          verification: new Verification({
            ...unmatched.verification!,
            taxTreatment: "Net",
            verifiedAt: new Date("2024-04-05T12:00:00Z")
          })
        })
      )
      const draft = yield* returns.draft("2026-06-05").pipe(as)
      expect(draft.warnings.map((w) => [w.contactCode, w.code])).toEqual([
        [unmatched.code, "VerifyAgain"],
        [unmatched.code, "TreatmentChanged"],
        [net.code, "MaterialsNotBelowGross"]
      ])
      for (const w of draft.warnings) expect(w.message).toMatch(/\.$/)

      // Filing it is refused for the subcontractor to verify again, naming its line.
      const refused = yield* Effect.flip(
        returns.file({ periodEnd: "2026-06-05", fromPayments: true, declarations: allDeclared }).pipe(as)
      )
      assert(refused instanceof ValidationFailed)
      expect(Object.keys(refused.errors)).toEqual(["lines[0].contact"])
      // On an accepted return for a tax month from the one ending 2024-05-05 (the first after 6
      // April 2024) on, HMRC still knows it; on an earlier one, or one not accepted, it does not.
      const filings = yield* MonthlyReturnRepo
      const filedWith = (periodEnd: string, status: MonthlyReturn["status"]) =>
        Effect.flatMap(newReturn(tenant, periodEnd, 0), (r) =>
          filings.insert(
            new MonthlyReturn({ ...r, status, lines: [new ReturnLine({ ...r.lines[0]!, contactId: unmatched.id })] })
          )
        )
      yield* filedWith("2024-04-05", "Accepted")
      yield* filedWith("2024-06-05", "Submitted")
      const verifyAgain = Effect.map(returns.draft("2026-06-05").pipe(as), (d) =>
        d.warnings.some((w) => w.code === "VerifyAgain")
      )
      expect(yield* verifyAgain).toBe(true)
      yield* filedWith("2024-05-05", "Accepted")
      expect(yield* verifyAgain).toBe(false)
      // Verified on 6 April 2024, it is recent enough.
      yield* repo.update(
        new Contact({
          ...unmatched,
          verification: new Verification({ ...unmatched.verification!, verifiedAt: new Date("2024-04-06T08:00:00Z") })
        })
      )
      expect((yield* returns.draft("2026-06-05").pipe(as)).warnings.map((w) => w.code)).toEqual([
        "MaterialsNotBelowGross"
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("files as it stands: its lines with their payments, the ceiling aside; a nil return when it has none", () =>
    Effect.gen(function* () {
      const { as, invoices, net, returns } = yield* setUp
      const invoice = yield* invoices.create(bill(net.code, "B-1")).pipe(as)
      const first = yield* invoices.addPayment(invoice.id, { date: "2026-05-10", amount: 33333 }).pipe(as)
      const second = yield* invoices.addPayment(invoice.id, { date: "2026-05-11", amount: 33333 }).pipe(as)
      const mixed = yield* Effect.flip(
        returns.file({ periodEnd: "2026-06-05", fromPayments: true, nilReturn: true, lines: [] }).pipe(as)
      )
      assert(mixed instanceof ValidationFailed)
      expect(Object.keys(mixed.errors).sort()).toEqual(["lines", "nilReturn"])
      const filed = yield* returns
        .file({ periodEnd: "2026-06-05", fromPayments: true, declarations: allDeclared })
        .pipe(as)
      expect(filed.lines.map((l) => [l.contactCode, l.grossAmount, l.deducted, l.payments])).toEqual([
        [net.code, first.grossAmount + second.grossAmount, first.deducted + second.deducted, [first.id, second.id]]
      ])
      // Paying in the filed month is now refused; the month's return cannot be filed twice.
      const late = yield* Effect.flip(invoices.addPayment(invoice.id, { date: "2026-05-12", amount: 1 }).pipe(as))
      assert(late instanceof Conflict)
      expect(
        yield* Effect.flip(
          returns.file({ periodEnd: "2026-06-05", fromPayments: true, declarations: allDeclared }).pipe(as)
        )
      ).toBeInstanceOf(Conflict)
      const nil = yield* returns
        .file({ periodEnd: "2026-07-05", fromPayments: true, inactive: true, declarations: nilDeclared })
        .pipe(as)
      expect([nil.nilReturn, nil.inactive, nil.lines]).toEqual([true, true, []])
      // A typed return's lines have no payments.
      const typed = yield* returns
        .file({
          periodEnd: "2026-08-05",
          lines: [{ contact: net.code, grossAmount: 100, materials: 0, deducted: 20 }],
          declarations: allDeclared
        })
        .pipe(as)
      expect(typed.lines[0]!.payments).toEqual([])
    }).pipe(Effect.provide(testApp()))
  )
})
