import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ContactId, TenantId } from "../../src/Ids.js"
import { MonthDeductions } from "../../src/returns/MonthDeductions.js"
import { MonthDeductionsFromPayments } from "../../src/returns/MonthDeductionsFromPayments.js"
import { type SubcontractorPayment, SubcontractorPayments } from "../../src/returns/SubcontractorPayments.js"

const tenant = TenantId.make("0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5d")

const payment = (date: string, deducted: number): SubcontractorPayment => ({
  contactId: ContactId.make("0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5e"),
  contactCode: "JOHNSMIT",
  purchaseInvoiceId: "bill",
  invoiceNumber: "B-1",
  paymentId: `payment-${date}`,
  date,
  amount: deducted * 4,
  grossAmount: deducted * 5,
  materials: 0,
  deducted,
  taxTreatment: "Net"
})

/** The payments a tenant made, answered for the range asked; the ranges asked are kept. */
const paid = (payments: ReadonlyArray<SubcontractorPayment>, asked: Array<[string, string]>) =>
  Layer.succeed(
    SubcontractorPayments,
    SubcontractorPayments.of({
      between: (tenantId, from, to) =>
        Effect.sync(() => {
          asked.push([from, to])
          return tenantId === tenant ? payments.filter((p) => p.date >= from && p.date <= to) : []
        })
    })
  )

describe("MonthDeductionsFromPayments", () => {
  it.effect(
    "totals each month's deducted shares by the tax month of the payment's date, 0 for a month without one",
    () =>
      Effect.gen(function* () {
        const asked: Array<[string, string]> = []
        const payments = [
          payment("2026-05-05", 4400),
          payment("2026-05-06", 100),
          payment("2026-06-05", 250),
          payment("2026-07-10", 9999)
        ]
        const drafted = yield* MonthDeductions.pipe(
          Effect.flatMap((deductions) => deductions.drafted(tenant, ["2026-07-05", "2026-05-05", "2026-06-05"])),
          Effect.provide(MonthDeductionsFromPayments.pipe(Layer.provide(paid(payments, asked))))
        )
        expect(Object.fromEntries(drafted)).toEqual({ "2026-05-05": 4400, "2026-06-05": 350, "2026-07-05": 0 })
        expect(asked).toEqual([["2026-04-06", "2026-07-05"]])
      })
  )

  it.effect("reads nothing when no month is asked", () =>
    Effect.gen(function* () {
      const asked: Array<[string, string]> = []
      const drafted = yield* MonthDeductions.pipe(
        Effect.flatMap((deductions) => deductions.drafted(tenant, [])),
        Effect.provide(MonthDeductionsFromPayments.pipe(Layer.provide(paid([payment("2026-05-05", 1)], asked))))
      )
      expect(drafted.size).toBe(0)
      expect(asked).toEqual([])
    })
  )
})
