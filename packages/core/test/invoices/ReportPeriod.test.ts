import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ValidationFailed } from "../../src/Errors.js"
import { parseInstant, reportPeriod } from "../../src/invoices/ReportPeriod.js"

describe("parseInstant", () => {
  it("reads RFC 3339 date-times with Z, an offset or none (UTC), and dates alone", () => {
    expect(parseInstant("2026-05-01T10:15:30Z")).toBe(Date.UTC(2026, 4, 1, 10, 15, 30))
    expect(parseInstant("2026-05-01t10:15:30.5z")).toBe(Date.UTC(2026, 4, 1, 10, 15, 30, 500))
    expect(parseInstant("2026-05-01T10:15:30.123456789+02:00")).toBe(Date.UTC(2026, 4, 1, 8, 15, 30, 123))
    expect(parseInstant("2026-05-01T23:30-01:00")).toBe(Date.UTC(2026, 4, 2, 0, 30))
    expect(parseInstant("2026-05-01T10:15:30")).toBe(Date.UTC(2026, 4, 1, 10, 15, 30))
    expect(parseInstant("2026-05-01")).toBe(Date.UTC(2026, 4, 1))
    expect(parseInstant("2024-02-29")).toBe(Date.UTC(2024, 1, 29))
  })

  it("refuses what is not a date-time", () => {
    for (const bad of [
      "",
      "yesterday",
      "2026-5-1",
      "2026-02-30",
      "2025-02-29",
      "2026-13-01",
      "2026-05-01T24:00:00Z",
      "2026-05-01T10:60Z",
      "2026-05-01T10:15:30+2",
      "2026-05-01T10:15:30+24:00",
      "2026-05-01 10:15:30Z",
      "1714557330"
    ]) {
      expect(parseInstant(bad), bad).toBeUndefined()
    }
  })
})

describe("reportPeriod", () => {
  it.effect("takes the UTC calendar dates of both bounds", () =>
    Effect.gen(function* () {
      expect(yield* reportPeriod("2026-05-01T00:30:00+01:00", "2026-05-31T23:59:59Z")).toEqual({
        from: "2026-04-30",
        to: "2026-05-31"
      })
      expect(yield* reportPeriod("2026-05-01", "2026-05-01")).toEqual({ from: "2026-05-01", to: "2026-05-01" })
    })
  )

  it.effect("names each malformed bound, and refuses from after to", () =>
    Effect.gen(function* () {
      const both = yield* Effect.flip(reportPeriod("x", "2026-02-30"))
      assert(both instanceof ValidationFailed)
      expect(Object.keys(both.errors).sort()).toEqual(["from", "to"])
      const reversed = yield* Effect.flip(reportPeriod("2026-05-01T10:00:00Z", "2026-05-01T09:59:59Z"))
      expect(reversed).toEqual(ValidationFailed.one("from", "Must not be after to"))
    })
  )
})
