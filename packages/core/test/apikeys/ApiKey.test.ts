import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { displayPrefix, formatApiKey, isApiKeyShape } from "../../src/apikeys/ApiKey.js"

const bytes = (values: ReadonlyArray<number>) => Uint8Array.from(values)
const zeros = (n: number) => Array.from({ length: n }, () => 0)

describe("formatApiKey", () => {
  it("is cis_ and 43 base62 digits, most significant first", () => {
    expect(formatApiKey(bytes(zeros(32)))).toBe(`cis_${"0".repeat(43)}`)
    expect(formatApiKey(bytes([...zeros(31), 1]))).toBe(`cis_${"0".repeat(42)}1`)
    expect(formatApiKey(bytes([...zeros(31), 61]))).toBe(`cis_${"0".repeat(42)}z`)
    expect(formatApiKey(bytes([...zeros(31), 62]))).toBe(`cis_${"0".repeat(41)}10`)
    expect(formatApiKey(bytes([...zeros(30), 1, 0]))).toBe(`cis_${"0".repeat(41)}48`) // 256 = 4 * 62 + 8
  })

  it("keeps its width when the random bytes start with zeros, and fits the largest value", () => {
    const leadingZeros = formatApiKey(bytes([0, 0, 0, 0, 0, 0, 0, 0, ...Array.from({ length: 24 }, () => 255)]))
    expect(leadingZeros).toHaveLength(47)
    expect(leadingZeros.slice(4, 14)).toBe("0000000000")
    const largest = formatApiKey(bytes(Array.from({ length: 32 }, () => 255)))
    expect(largest).toHaveLength(47)
    expect(largest).toMatch(/^cis_[1-9A-Za-z][0-9A-Za-z]{42}$/)
  })

  it.prop(
    "always has the shape it is checked against, and different bytes give different keys",
    [FastCheck.uint8Array({ minLength: 32, maxLength: 32 }), FastCheck.uint8Array({ minLength: 32, maxLength: 32 })],
    ([a, b]) => {
      const key = formatApiKey(a)
      expect(key).toMatch(/^cis_[0-9A-Za-z]{43}$/)
      expect(isApiKeyShape(key)).toBe(true)
      expect(formatApiKey(b) === key).toBe(a.every((byte, i) => byte === b[i]))
    }
  )
})

describe("isApiKeyShape", () => {
  it("refuses what no issued key can look like", () => {
    const key = formatApiKey(bytes(Array.from({ length: 32 }, (_, i) => i * 7)))
    for (const candidate of [
      "",
      "cis_",
      key.slice(4),
      `CIS_${key.slice(4)}`,
      `cis-${key.slice(4)}`,
      `cis_${"a".repeat(39)}`,
      `cis_${"a".repeat(51)}`,
      `${key.slice(0, -1)}_`,
      `${key.slice(0, -1)}é`,
      `${key} `,
      ` ${key}`,
      `${key}\n`
    ]) {
      expect(isApiKeyShape(candidate), JSON.stringify(candidate)).toBe(false)
    }
  })
})

describe("displayPrefix", () => {
  it("is the first 10 characters: cis_ and 6 of the random part", () => {
    expect(displayPrefix("cis_AbCdEf0123456789")).toBe("cis_AbCdEf")
  })
})
