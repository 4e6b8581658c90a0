import { formatDate, formatMoney } from "../../src/mail/MailFormat.js"
import { describe, expect, it } from "@effect/vitest"

describe("mail formats", () => {
  it("writes pence as pounds with a thousands separator and two decimals", () => {
    expect(formatMoney(123456)).toBe("£1,234.56")
    expect(formatMoney(0)).toBe("£0.00")
    expect(formatMoney(5)).toBe("£0.05")
    expect(formatMoney(100000)).toBe("£1,000.00")
    expect(formatMoney(99_999_999_999)).toBe("£999,999,999.99")
  })

  it("writes a date as day, month name and year", () => {
    expect(formatDate("2026-06-05")).toBe("5 June 2026")
    expect(formatDate("2026-12-31")).toBe("31 December 2026")
    expect(formatDate("2027-01-01")).toBe("1 January 2027")
  })
})
