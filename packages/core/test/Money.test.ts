import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { formatPounds, MAX_PENCE, Pounds, SignedPounds } from "../src/Money.js"

const decode = Schema.decodeUnknownEither(Pounds)

describe("Pounds", () => {
  it("reads pounds with up to 2 decimals as exact pence", () => {
    expect(decode(1250.5)).toEqual(Either.right(125050))
    expect(decode(0.29)).toEqual(Either.right(29))
    expect(decode(0.1)).toEqual(Either.right(10))
    expect(decode(0)).toEqual(Either.right(0))
    expect(decode(999999999.99)).toEqual(Either.right(MAX_PENCE))
    expect(decode(1.1)).toEqual(Either.right(110))
  })

  it("refuses a third decimal, a negative, a non-number and more than the maximum", () => {
    for (const bad of [0.295, 1.001, 0.30000000000000004, -1, -0.01, 1e-7, 1e21, 1000000000, "5", null]) {
      expect(Either.isLeft(decode(bad)), String(bad)).toBe(true)
    }
  })

  it.prop(
    "gives back the same pence through pounds, for every amount",
    [fc.integer({ min: 0, max: MAX_PENCE })],
    ([pence]) => {
      const pounds = Schema.encodeSync(Pounds)(pence)
      expect(decode(pounds)).toEqual(Either.right(pence))
      expect(JSON.parse(JSON.stringify(pounds))).toBe(pounds)
    }
  )
})

describe("formatPounds", () => {
  it("writes two decimals", () => {
    expect(formatPounds(125050)).toBe("1250.50")
    expect(formatPounds(5)).toBe("0.05")
    expect(formatPounds(0)).toBe("0.00")
    expect(formatPounds(MAX_PENCE)).toBe("999999999.99")
  })
})

describe("SignedPounds", () => {
  const decodeSigned = Schema.decodeUnknownEither(SignedPounds)

  it("reads a difference below 0 as negative pence, and refuses a third decimal either side", () => {
    expect(decodeSigned(-12.5)).toEqual(Either.right(-1250))
    expect(decodeSigned(0.01)).toEqual(Either.right(1))
    expect(decodeSigned(-999999999.99)).toEqual(Either.right(-MAX_PENCE))
    for (const bad of [-0.295, 0.001, -1e21, "5", null])
      expect(Either.isLeft(decodeSigned(bad)), String(bad)).toBe(true)
  })

  it.prop(
    "gives back the same pence through pounds, either side of 0",
    [fc.integer({ min: -MAX_PENCE, max: MAX_PENCE })],
    ([pence]) => {
      const pounds = Schema.encodeSync(SignedPounds)(pence)
      expect(decodeSigned(pounds)).toEqual(Either.right(pence))
      expect(JSON.parse(JSON.stringify(pounds))).toBe(pounds)
    }
  )
})
