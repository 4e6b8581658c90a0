import { returnKind, returnShapeErrors } from "@cisbook/core/returns/ReturnInput"
import { fromParseError } from "@cisbook/core/Validation"
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { CreateMonthlyReturnRequest } from "../src/MonthlyReturnDtos.js"

describe("a new return's shape", () => {
  // As a 400 names them: member → messages, of the request's decoding, else of the rules the
  // use case checks first.
  const problems = (input: unknown) =>
    Object.entries(
      Either.match(Schema.decodeUnknownEither(CreateMonthlyReturnRequest, { errors: "all" })(input), {
        onLeft: (error) => fromParseError(error).errors,
        onRight: returnShapeErrors
      })
    ).flatMap(([m, ms]) => ms.map((x) => [m, x]))
  const aLine = { contact: "NET", grossAmount: 100, materials: 0, deducted: 20 }

  it("is a nil return with no lines (left out, null or empty), inactive or not", () => {
    expect(problems({ periodEnd: "2026-06-05", nilReturn: true })).toEqual([])
    expect(problems({ periodEnd: "2026-06-05", nilReturn: true, lines: [], inactive: true })).toEqual([])
    expect(problems({ periodEnd: "2026-06-05", nilReturn: true, lines: null, inactive: null })).toEqual([])
    expect(
      returnKind(Schema.decodeUnknownSync(CreateMonthlyReturnRequest)({ periodEnd: "2026-06-05", nilReturn: true }))
    ).toEqual({
      nilReturn: true,
      inactive: false,
      lines: []
    })
  })

  it("or has 1–1,000 lines; the nil rules name lines and inactive", () => {
    expect(problems({ periodEnd: "2026-06-05", lines: [aLine] })).toEqual([])
    expect(problems({ periodEnd: "2026-06-05", nilReturn: true, lines: [aLine] })).toEqual([
      ["lines", "A nil return has no lines: leave lines out, or set nilReturn to false"]
    ])
    const none = [
      "lines",
      "A return has at least one line; for a month with no payments to subcontractors, file a nil return (nilReturn: true)"
    ]
    expect(problems({ periodEnd: "2026-06-05" })).toEqual([none])
    expect(problems({ periodEnd: "2026-06-05", nilReturn: false, lines: [] })).toEqual([none])
    expect(problems({ periodEnd: "2026-06-05", inactive: true, lines: [aLine] })).toEqual([
      ["inactive", "Only a nil return can declare the contractor inactive (set nilReturn to true)"]
    ])
    expect(problems({ periodEnd: "2026-06-05", lines: Array.from({ length: 1001 }, () => aLine) })).toEqual([
      ["lines", "A return has at most 1000 lines"]
    ])
    expect(problems({ periodEnd: "2026-06-05", nilReturn: "yes" }).map(([member]) => member)).toEqual(["nilReturn"])
  })
})
