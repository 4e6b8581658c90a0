import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { contactQuery, searchTerms } from "../../src/contacts/ContactQuery.js"

describe("searchTerms", () => {
  it("keeps the words of 3 characters or more, lower case, once each", () => {
    expect(searchTerms("  Acme  BUILDERS ltd acme ")).toEqual(["acme", "builders", "ltd"])
    expect(searchTerms("a bc de")).toEqual([])
    expect(searchTerms(undefined)).toEqual([])
  })

  it("counts characters, not UTF-16 units", () => {
    expect(searchTerms("😀😀 Łód")).toEqual(["łód"])
  })
})

describe("contactQuery", () => {
  it.effect("fills the defaults and caps the limit at 50", () =>
    Effect.gen(function* () {
      expect(yield* contactQuery({})).toEqual({
        offset: 0,
        limit: 10,
        sortBy: "Name",
        sortDesc: false,
        terms: [],
        role: null,
        verificationStatus: null
      })
      expect(yield* contactQuery({ limit: 51, offset: 7, sortBy: "Email", sortDesc: true })).toMatchObject({
        limit: 50,
        offset: 7,
        sortBy: "Email",
        sortDesc: true
      })
      expect((yield* contactQuery({ limit: 1 })).limit).toBe(1)
    })
  )
})
