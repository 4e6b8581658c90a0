import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { paymentShare, split } from "../../src/invoices/PaymentShares.js"

const sum = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0)

/** An invoice's payable amount cut into 1 to `max` positive payments, in some order. */
const fullPayments = (max: number) =>
  fc.integer({ min: 1, max: 10_000_000 }).chain((payable) =>
    fc
      .uniqueArray(fc.integer({ min: 1, max: Math.max(1, payable - 1) }), { maxLength: max - 1 })
      .map((cuts) => cuts.filter((cut) => cut < payable))
      .map((cuts) => {
        const points = [0, ...[...cuts].sort((a, b) => a - b), payable]
        return { payable, amounts: points.slice(1).map((p, i) => p - (points[i] ?? 0)) }
      })
  )

const invoices = (max: number) =>
  fullPayments(max).chain(({ amounts, payable }) =>
    fc.integer({ min: 0, max: payable * 20 }).map((deduction) => ({ deduction, payable, amounts }))
  )

describe("split", () => {
  it("gives each payment its proportional share, rounded half up, and the last one what is left", () => {
    // 200 deducted from 1200, so 1000 payable.
    expect(split(20000, 100000, [30000, 70000])).toEqual([6000, 14000])
    expect(split(20000, 100000, [33333, 33333, 33334])).toEqual([6667, 6667, 6666])
    expect(split(100, 300, [150, 150])).toEqual([50, 50])
    expect(split(1, 4, [2, 2])).toEqual([1, 0])
    expect(split(0, 5000, [1000, 4000])).toEqual([0, 0])
    expect(split(7, 10, [5])).toEqual([4])
  })

  it("never takes more than is left: tiny payments that each round up stop at the deduction", () => {
    // 5/8 of a penny rounds up to 1 on every payment: the eighth payment would be -2 without the limit.
    expect(split(5, 8, [1, 1, 1, 1, 1, 1, 1, 1])).toEqual([1, 1, 1, 1, 1, 0, 0, 0])
  })

  it("stays exact with amounts whose product passes 2^53", () => {
    expect(paymentShare(99_999_999_999, 99_999_999_999, { amount: 0, share: 0 }, 33_333_333_333)).toBe(33_333_333_333)
  })

  it.prop(
    "the shares of a fully paid invoice add up to its deduction exactly, and none is negative",
    [invoices(40)],
    ([{ amounts, deduction, payable }]) => {
      const shares = split(deduction, payable, amounts)
      expect(shares).toHaveLength(amounts.length)
      expect(sum(shares)).toBe(deduction)
      for (const share of shares) {
        expect(Number.isInteger(share)).toBe(true)
        expect(share).toBeGreaterThanOrEqual(0)
      }
    },
    { fastCheck: { numRuns: 500 } }
  )

  it.prop(
    "a partly paid invoice's shares never pass its deduction, and each is within a penny of its proportion unless the deduction ran out",
    [invoices(20), fc.nat()],
    ([{ amounts, deduction, payable }, seed]) => {
      const paid = amounts.slice(0, Math.max(1, amounts.length - 1 - (seed % amounts.length)))
      const shares = split(deduction, payable, paid)
      expect(sum(shares)).toBeLessThanOrEqual(deduction)
      let before = 0
      paid.forEach((amount, i) => {
        const share = shares[i] ?? -1
        const exact = (deduction * amount) / payable
        const left = deduction - before
        const completes = sum(paid.slice(0, i + 1)) === payable
        if (!completes) expect(share === left || Math.abs(share - exact) <= 0.5 + 1e-9).toBe(true)
        before += share
      })
    },
    { fastCheck: { numRuns: 500 } }
  )
})
