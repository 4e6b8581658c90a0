import { storedDeclarations } from "@cisbook/testkit/DeclarationsFixtures"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ValidationFailed } from "../../src/Errors.js"
import { PurchaseInvoices } from "../../src/invoices/PurchaseInvoices.js"
import { MonthlyReturnId } from "../../src/Ids.js"
import { lateFilingPenalty } from "../../src/returns/LateFilingPenalty.js"
import { MonthlyReturn, ReturnContractor, ReturnLine } from "../../src/returns/MonthlyReturn.js"
import { MonthlyReturnRepo } from "../../src/returns/MonthlyReturnRepo.js"
import { Obligations } from "../../src/returns/Obligations.js"
import { returnDueDate, taxMonthEndOf } from "../../src/returns/TaxMonth.js"
import { ContactId } from "../../src/Ids.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { subcontractor } from "../invoices/VerifiedSubcontractor.js"
import { asMember, asUser, aUser, testApp } from "../TestApp.js"

const TENANT = "lovelace-builders"
const scheme = { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }

/** A tenant registered for CIS from `registeredFrom`, with the clock at `today` (noon UTC). */
const contractor = (registeredFrom: string | undefined, today: string) =>
  Effect.gen(function* () {
    yield* (yield* ManualClock).set(new Date(`${today}T12:00:00Z`))
    const owner = yield* aUser("owner@example.com")
    const { tenant } = yield* (yield* Tenants)
      .create({ code: TenantCode.make(TENANT), name: "Lovelace Builders Ltd", email: null })
      .pipe(asUser(owner))
    const registration = yield* (yield* TenantSettings)
      .setCisScheme(registeredFrom === undefined ? scheme : { ...scheme, registeredFrom })
      .pipe(asMember(owner, TENANT))
    const obligations = (range: { from?: string; to?: string } = {}) =>
      Effect.flatMap(Obligations, (o) => o.list(range)).pipe(asMember(owner, TENANT))
    let n = 0
    /** A return of the month as stored, filed at `filedOn` noon UTC, deducting `deducted` pence. */
    const stored = (
      periodEnd: string,
      filedOn: string,
      fields: Partial<{
        status: MonthlyReturn["status"]
        nilReturn: boolean
        inactive: boolean
        gatewayTest: boolean
        deducted: number
        releasedOn: string
      }> = {}
    ) =>
      Effect.gen(function* () {
        n += 1
        const submittedAt = new Date(`${filedOn}T12:00:00Z`)
        const nilReturn = fields.nilReturn ?? false
        const r = new MonthlyReturn({
          id: MonthlyReturnId.make(`0197a3c4-5e6f-7a8b-9cad-${String(n).padStart(12, "0")}`),
          tenantId: tenant.id,
          periodEnd,
          status: fields.status ?? "Accepted",
          contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123" }),
          lines: nilReturn
            ? []
            : [
                new ReturnLine({
                  contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
                  contactCode: "BRICKS",
                  name: "Bricks",
                  utr: "2234567890",
                  verificationNumber: "V1234567890",
                  taxTreatment: "Net",
                  grossAmount: 10_000_000,
                  materials: 0,
                  deducted: fields.deducted ?? 20_000
                })
              ],
          nilReturn,
          inactive: fields.inactive ?? false,
          declarations: storedDeclarations(submittedAt, nilReturn),
          submittedAt,
          releasedAt: fields.releasedOn === undefined ? null : new Date(`${fields.releasedOn}T09:00:00Z`),
          acceptedAt: (fields.status ?? "Accepted") === "Accepted" ? submittedAt : null,
          rejectionReason: fields.status === "Rejected" ? "UTR not known" : null,
          heldReason: fields.status === "Held" ? "HMRC refused the credentials" : null,
          heldFor: fields.status === "Held" ? "Credentials" : null,
          invoiced: false,
          gatewayTest: fields.gatewayTest ?? false
        })
        yield* (yield* MonthlyReturnRepo).insert(r)
        return r
      })
    const bricks = yield* subcontractor(owner, TENANT, "Bricks", "Net")
    const invoices = yield* PurchaseInvoices
    /**
     * A bill of Bricks (Net: 20 % of the labour deducted) paid in full on `periodEnd`, so that the
     * month's return drafted from its payments deducts `deducted` pence.
     */
    const paidDeducting = (periodEnd: string, deducted: number) =>
      Effect.gen(function* () {
        const bill = yield* invoices.create({
          contact: bricks.code,
          number: `B-${periodEnd}`,
          issueDate: periodEnd,
          dueDate: periodEnd,
          subtotal: deducted * 5,
          vat: 0,
          materials: 0
        })
        yield* invoices.addPayment(bill.id, { date: periodEnd, amount: deducted * 4 })
      }).pipe(asMember(owner, TENANT))
    return { obligations, stored, paidDeducting, registration, owner } as const
  })

describe("lateFilingPenalty", () => {
  const due = "2026-06-19"
  it("is nothing on the due date, £100 the day after, £200 more after the same day two months on", () => {
    expect(lateFilingPenalty(due, "2026-06-18", 0)).toBe(0)
    expect(lateFilingPenalty(due, "2026-06-19", 0)).toBe(0)
    expect(lateFilingPenalty(due, "2026-06-20", 0)).toBe(10_000)
    expect(lateFilingPenalty(due, "2026-08-19", 0)).toBe(10_000)
    expect(lateFilingPenalty(due, "2026-08-20", 0)).toBe(30_000)
  })

  it("adds the greater of £300 and 5 % of the deductions (rounded down) after six months, and again after twelve", () => {
    expect(lateFilingPenalty(due, "2026-12-19", 1_000_019)).toBe(30_000)
    expect(lateFilingPenalty(due, "2026-12-20", 0)).toBe(60_000)
    // 5 % of £10,000.19 is £500.0095: £500.00.
    expect(lateFilingPenalty(due, "2026-12-20", 1_000_019)).toBe(30_000 + 50_000)
    expect(lateFilingPenalty(due, "2026-12-20", 599_999)).toBe(30_000 + 30_000)
    expect(lateFilingPenalty(due, "2027-06-19", 1_000_019)).toBe(80_000)
    expect(lateFilingPenalty(due, "2027-06-20", 1_000_019)).toBe(130_000)
    expect(lateFilingPenalty(due, "2027-06-20", 0)).toBe(90_000)
  })

  it("counts the months from a due date at the end of a shorter month the same way", () => {
    expect(lateFilingPenalty("2026-01-19", "2026-03-19", 0)).toBe(10_000)
    expect(lateFilingPenalty("2026-01-19", "2026-03-20", 0)).toBe(30_000)
  })
})

describe("tax months", () => {
  it("end on the 5th: the 5th is the last day of its month, the 6th the first of the next", () => {
    expect(taxMonthEndOf("2026-06-05")).toBe("2026-06-05")
    expect(taxMonthEndOf("2026-06-06")).toBe("2026-07-05")
    expect(taxMonthEndOf("2026-12-06")).toBe("2027-01-05")
    expect(returnDueDate("2026-06-05")).toBe("2026-06-19")
  })
})

describe("Obligations", () => {
  it.effect(
    "start with the tax month the registration began in: a 5th is its own month's last day, a 6th the next's",
    () =>
      Effect.gen(function* () {
        const on5th = yield* contractor("2026-06-05", "2026-07-10")
        expect((yield* on5th.obligations()).map((o) => o.periodEnd)).toEqual(["2026-06-05", "2026-07-05", "2026-08-05"])
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("from a registration on the 6th, the first month is the one that starts that day", () =>
    Effect.gen(function* () {
      const on6th = yield* contractor("2026-06-06", "2026-07-10")
      expect((yield* on6th.obligations()).map((o) => o.periodEnd)).toEqual(["2026-07-05", "2026-08-05"])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("Filed on the due date, FiledLate the day after, Due until the due date, Overdue after it", () =>
    Effect.gen(function* () {
      const { obligations, paidDeducting, stored } = yield* contractor("2026-01-01", "2026-07-20")
      const onTime = yield* stored("2026-04-05", "2026-04-19")
      const late = yield* stored("2026-05-05", "2026-05-20")
      yield* paidDeducting("2026-01-05", 1_000_000)
      const all = yield* obligations({ from: "2026-01-05" })
      expect(all.map((o) => [o.periodEnd, o.dueDate, o.status, o.monthlyReturn, o.filedOn, o.penalty])).toEqual([
        // Over six months late on 2026-07-20: £100 + £200 + 5 % of the draft's £10,000.
        ["2026-01-05", "2026-01-19", "Overdue", null, null, 10_000 + 20_000 + 50_000],
        ["2026-02-05", "2026-02-19", "Overdue", null, null, 30_000],
        ["2026-03-05", "2026-03-19", "Overdue", null, null, 30_000],
        ["2026-04-05", "2026-04-19", "Filed", onTime.id, "2026-04-19", 0],
        ["2026-05-05", "2026-05-19", "FiledLate", late.id, "2026-05-20", 10_000],
        ["2026-06-05", "2026-06-19", "Overdue", null, null, 10_000],
        ["2026-07-05", "2026-07-19", "Overdue", null, null, 10_000],
        ["2026-08-05", "2026-08-19", "Due", null, null, 0]
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("a month is Due on its due date and Overdue with £100 from the next day", () =>
    Effect.gen(function* () {
      const onDue = yield* contractor("2026-06-06", "2026-07-19")
      expect((yield* onDue.obligations({ to: "2026-07-05" })).map((o) => [o.status, o.penalty])).toEqual([["Due", 0]])
      yield* (yield* ManualClock).set(new Date("2026-07-20T00:30:00Z"))
      expect((yield* onDue.obligations({ to: "2026-07-05" })).map((o) => [o.status, o.penalty])).toEqual([
        ["Overdue", 10_000]
      ])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("a filed return's penalty stands as of the day it was filed, worked on its own deductions", () =>
    Effect.gen(function* () {
      const { obligations, stored } = yield* contractor("2025-01-01", "2026-11-20")
      yield* stored("2025-03-05", "2025-09-20", { deducted: 2_000_000 })
      const [march] = yield* obligations({ from: "2025-03-05", to: "2025-03-05" })
      expect(march).toMatchObject({ status: "FiledLate", filedOn: "2025-09-20", penalty: 10_000 + 20_000 + 100_000 })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("nothing is due for six tax months after a nil return that declared the contractor inactive", () =>
    Effect.gen(function* () {
      const { obligations, stored } = yield* contractor("2025-01-01", "2026-03-25")
      const nil = yield* stored("2025-08-05", "2025-08-10", { nilReturn: true, inactive: true })
      const filedDuring = yield* stored("2025-11-05", "2025-12-01")
      const all = yield* obligations({ from: "2025-08-05", to: "2026-03-05" })
      expect(all.map((o) => [o.periodEnd, o.status, o.monthlyReturn, o.penalty])).toEqual([
        ["2025-08-05", "Filed", nil.id, 0],
        ["2025-09-05", "Inactive", null, 0],
        ["2025-10-05", "Inactive", null, 0],
        ["2025-11-05", "FiledLate", filedDuring.id, 10_000],
        ["2025-12-05", "Inactive", null, 0],
        ["2026-01-05", "Inactive", null, 0],
        ["2026-02-05", "Inactive", null, 0],
        ["2026-03-05", "Overdue", null, 10_000]
      ])
      // An inactivity declaration before the range still covers its first months.
      expect((yield* obligations({ from: "2025-10-05", to: "2025-10-05" })).map((o) => o.status)).toEqual(["Inactive"])
      // The seventh month after it is due again.
      const later = yield* obligations({ from: "2026-02-05", to: "2026-03-05" })
      expect(later.map((o) => o.status)).toEqual(["Inactive", "Overdue"])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "a Held return is not filed until sent again, then filed on that day; a Rejected one and one sent as a test do not count",
    () =>
      Effect.gen(function* () {
        const { obligations, paidDeducting, stored } = yield* contractor("2026-01-01", "2026-08-25")
        const held = yield* stored("2026-01-05", "2026-01-10", { status: "Held", deducted: 800_000 })
        const released = yield* stored("2026-02-05", "2026-02-10", { status: "Submitted", releasedOn: "2026-03-01" })
        yield* stored("2026-03-05", "2026-03-10", { status: "Rejected" })
        yield* stored("2026-04-05", "2026-04-10", { gatewayTest: true })
        const heldInactive = yield* stored("2026-05-05", "2026-05-10", {
          status: "Held",
          nilReturn: true,
          inactive: true
        })
        yield* paidDeducting("2026-03-05", 900_000)
        const all = yield* obligations({ from: "2026-01-05", to: "2026-06-05" })
        expect(all.map((o) => [o.periodEnd, o.status, o.monthlyReturn, o.filedOn, o.penalty])).toEqual([
          // Held: not filed; its own deductions (£8,000: 5 % is £400) once over six months late.
          ["2026-01-05", "Overdue", held.id, null, 10_000 + 20_000 + 40_000],
          ["2026-02-05", "FiledLate", released.id, "2026-03-01", 10_000],
          ["2026-03-05", "Overdue", null, null, 30_000],
          ["2026-04-05", "Overdue", null, null, 30_000],
          // A held inactivity declaration has not reached HMRC: it covers nothing yet.
          ["2026-05-05", "Overdue", heldInactive.id, null, 30_000],
          ["2026-06-05", "Overdue", null, null, 30_000]
        ])
      }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "default to the twelve tax months ending with the current one, and answer none without a registration",
    () =>
      Effect.gen(function* () {
        const { obligations } = yield* contractor("2020-04-06", "2026-11-29")
        const all = yield* obligations()
        expect([all.length, all[0]?.periodEnd, all.at(-1)?.periodEnd]).toEqual([12, "2026-01-05", "2026-12-05"])
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("a registration set without a date began the day it was first set, and keeps that date", () =>
    Effect.gen(function* () {
      const { obligations, owner, registration } = yield* contractor(undefined, "2026-11-29")
      expect(registration.registeredFrom).toBe("2026-11-29")
      yield* (yield* ManualClock).set(new Date("2027-02-01T12:00:00Z"))
      const settings = yield* TenantSettings
      yield* settings.setCisScheme(scheme).pipe(asMember(owner, TENANT))
      const again = yield* settings.cisScheme().pipe(asMember(owner, TENANT))
      expect(Option.map(again, (r) => r.registeredFrom)).toEqual(Option.some("2026-11-29"))
      expect((yield* obligations()).map((o) => o.periodEnd)).toEqual(["2026-12-05", "2027-01-05", "2027-02-05"])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuse from after to, and more than 120 tax months at once, naming the member", () =>
    Effect.gen(function* () {
      const { obligations } = yield* contractor("2020-04-06", "2026-11-29")
      const backwards = yield* Effect.flip(obligations({ from: "2026-06-05", to: "2026-05-05" }))
      assert(backwards instanceof ValidationFailed)
      expect(Object.keys(backwards.errors)).toEqual(["from"])
      const tooMany = yield* Effect.flip(obligations({ from: "2016-01-05", to: "2026-01-05" }))
      assert(tooMany instanceof ValidationFailed)
      expect(Object.keys(tooMany.errors)).toEqual(["to"])
      expect(yield* obligations({ from: "2016-02-05", to: "2026-01-05" })).toHaveLength(69)
    }).pipe(Effect.provide(testApp()))
  )
})
