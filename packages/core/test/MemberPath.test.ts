import { describe, expect, it } from "@effect/vitest"
import { memberPath } from "../src/MemberPath.js"

describe("memberPath", () => {
  it("joins members with dots and writes array positions in brackets, as ASP.NET Core does", () => {
    expect(memberPath(["lines", 0, "contact"])).toBe("lines[0].contact")
    expect(memberPath(["address", "lines", 1])).toBe("address.lines[1]")
    expect(memberPath(["matrix", 2, 3, "value"])).toBe("matrix[2][3].value")
    expect(memberPath(["cisDetails", "utr"])).toBe("cisDetails.utr")
    expect(memberPath(["email"])).toBe("email")
  })

  it("names the input itself $, and a position in a top-level array in brackets", () => {
    expect(memberPath([])).toBe("$")
    expect(memberPath([0, "rowId"])).toBe("[0].rowId")
  })
})
