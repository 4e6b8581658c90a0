import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Email } from "../src/Email.js"
import { ValidationFailed } from "../src/Errors.js"
import { TenantCode } from "../src/tenants/Tenant.js"
import { UserName } from "../src/users/User.js"
import { decodeInput, describeFieldErrors, fieldErrors } from "../src/Validation.js"

describe("fieldErrors", () => {
  it("groups messages by member path (lines[0].amount), dropping repeats", () => {
    expect(
      fieldErrors([
        { path: ["email"], message: "Must be an email address" },
        { path: ["address", "postcode"], message: "Must be a UK postcode" },
        { path: ["lines", 0, "amount"], message: "Must be at least 0" },
        { path: ["email"], message: "Too long" },
        { path: ["email"], message: "Must be an email address" }
      ])
    ).toEqual({
      email: ["Must be an email address", "Too long"],
      "address.postcode": ["Must be a UK postcode"],
      "lines[0].amount": ["Must be at least 0"]
    })
  })

  it("leaves out a nullable member's failed null branch once the member has messages of its own", () => {
    expect(
      fieldErrors([
        { path: ["email"], message: "Must be an email address" },
        { path: ["email"], message: 'Expected null, actual "nope"' },
        { path: ["cisDetails", "utr"], message: "Must be a 10-digit UTR" },
        { path: ["cisDetails"], message: "Expected null, actual {}" },
        { path: ["cisDetails"], message: "Expected undefined, actual {}" },
        { path: ["vatNumber"], message: "Expected null, actual 5" }
      ])
    ).toEqual({
      email: ["Must be an email address"],
      "cisDetails.utr": ["Must be a 10-digit UTR"],
      vatNumber: ["Expected null, actual 5"]
    })
  })

  it("names the request itself $", () => {
    expect(fieldErrors([{ path: [], message: "Expected an object" }])).toEqual({ $: ["Expected an object"] })
    expect(fieldErrors([])).toEqual({})
  })
})

describe("describeFieldErrors", () => {
  it("names the one invalid member and its first message", () => {
    expect(describeFieldErrors({ email: ["Must be an email address", "Too long"] })).toBe(
      "email: Must be an email address."
    )
    expect(describeFieldErrors({ $: ["Expected an object"] })).toBe("Expected an object.")
  })

  it("counts and names several invalid members", () => {
    expect(describeFieldErrors({ email: ["x"], "address.postcode": ["y"] })).toBe(
      "2 members are invalid: email, address.postcode. See errors for each one."
    )
  })
})

const Input = Schema.Struct({
  email: Email,
  name: UserName,
  tenant: Schema.Struct({ code: TenantCode, seats: Schema.Number.pipe(Schema.int(), Schema.positive()) })
})

describe("decodeInput", () => {
  it.effect("decodes and normalises valid input, ignoring unknown members", () =>
    Effect.gen(function* () {
      const decoded = yield* decodeInput(Input)({
        email: " Ada@Example.COM ",
        name: " Ada ",
        tenant: { code: "acme", seats: 3, colour: "blue" },
        extra: true
      })
      expect(decoded).toEqual({ email: "ada@example.com", name: "Ada", tenant: { code: "acme", seats: 3 } })
    })
  )

  it.effect("reports every invalid member at once, nested ones by their dotted path", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        decodeInput(Input)({ email: "nope", name: "   ", tenant: { code: "Acme!", seats: 1.5 } })
      )
      expect(error).toBeInstanceOf(ValidationFailed)
      expect(Object.keys(error.errors).sort()).toEqual(["email", "name", "tenant.code", "tenant.seats"])
      expect(error.errors["email"]).toEqual(["Must be an email address such as name@example.com"])
      expect(error.errors["name"]).toEqual(["A name is required"])
      expect(error.errors["tenant.code"]?.[0]).toMatch(/^Must be 3 to 40 characters/)
      expect(error.errors["tenant.seats"]).toHaveLength(1)
      expect(error.detail).toBe(
        "4 members are invalid: email, name, tenant.code, tenant.seats. See errors for each one."
      )
    })
  )

  it.effect("reports a missing member and a wrong type, and one invalid member in the detail", () =>
    Effect.gen(function* () {
      const missing = yield* Effect.flip(decodeInput(Schema.Struct({ email: Email, name: UserName }))({ name: "Ada" }))
      expect(Object.keys(missing.errors)).toEqual(["email"])
      expect(missing.detail).toMatch(/^email: .+\.$/)
      const notAnObject = yield* Effect.flip(decodeInput(Input)("ada@example.com"))
      expect(Object.keys(notAnObject.errors)).toEqual(["$"])
    })
  )
})
