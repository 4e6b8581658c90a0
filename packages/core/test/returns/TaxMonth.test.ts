import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { ukCalendarDate } from "../../src/CalendarDate.js"
import { PeriodEnd, taxMonthEndOf, taxMonthStart } from "../../src/returns/TaxMonth.js"

describe("TaxMonth", () => {
  it("runs from the 6th to the 5th: a date names the month that ends on the next 5th", () => {
    expect(taxMonthEndOf("2026-06-05")).toBe("2026-06-05")
    expect(taxMonthEndOf("2026-06-06")).toBe("2026-07-05")
    expect(taxMonthEndOf("2026-05-06")).toBe("2026-06-05")
    expect(taxMonthEndOf("2026-12-31")).toBe("2027-01-05")
    expect(taxMonthStart("2026-06-05")).toBe("2026-05-06")
    expect(taxMonthStart("2027-01-05")).toBe("2026-12-06")
  })

  it("reads the date in the UK: 23:30 UTC on 5 July in summer is already the 6th", () => {
    expect(ukCalendarDate(new Date("2026-07-05T23:30:00Z"))).toBe("2026-07-06")
    expect(ukCalendarDate(new Date("2026-01-05T23:30:00Z"))).toBe("2026-01-05")
  })

  it("takes as a period end only a real date on the 5th", () => {
    const is = Schema.is(PeriodEnd)
    expect(is("2026-06-05")).toBe(true)
    expect(is("2026-06-06")).toBe(false)
    expect(is("2026-6-5")).toBe(false)
  })
})
