import { describe, expect, it } from "@effect/vitest"
import { ukCalendarDate } from "../src/CalendarDate.js"

describe("CalendarDate", () => {
  it("reads the date in the UK: 23:30 UTC on 5 July in summer is already the 6th", () => {
    expect(ukCalendarDate(new Date("2026-07-05T23:30:00Z"))).toBe("2026-07-06")
    expect(ukCalendarDate(new Date("2026-01-05T23:30:00Z"))).toBe("2026-01-05")
  })
})
