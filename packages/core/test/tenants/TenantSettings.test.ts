import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { CisDetails } from "../../src/cis/CisDetails.js"
import { Forbidden, NotFound, ValidationFailed } from "../../src/Errors.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { aUser, testApp } from "../TestApp.js"

const acme = { code: TenantCode.make("acme-builders"), name: "Acme Builders", email: null }

/** An owner of acme-builders, and the use cases. */
const setUp = Effect.gen(function* () {
  const tenants = yield* Tenants
  const settings = yield* TenantSettings
  const owner = yield* aUser("owner@example.com")
  yield* tenants.create(owner, acme)
  return { tenants, settings, owner } as const
})

const typed = {
  type: "SoleTrader",
  title: " Ms ",
  firstName: "Ada",
  secondName: "",
  lastName: "Lovelace",
  utr: "k2234567890",
  niNumber: "ab 12 34 56 c"
} as const

const stored = Schema.decodeUnknownSync(CisDetails)({
  type: "SoleTrader",
  title: "Ms",
  firstName: "Ada",
  secondName: null,
  lastName: "Lovelace",
  tradingName: null,
  utr: "2234567890",
  niNumber: "AB123456C",
  companyNumber: null
})

describe("TenantSettings CIS details", () => {
  it.effect("are none until set; then the normalised details, as stored", () =>
    Effect.gen(function* () {
      const { owner, settings } = yield* setUp
      expect(yield* settings.cisDetails(owner, "acme-builders")).toEqual(Option.none())
      const saved = yield* settings.setCisDetails(owner, "acme-builders", typed)
      expect(saved).toEqual(stored)
      expect(yield* settings.cisDetails(owner, "acme-builders")).toEqual(Option.some(stored))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("are replaced whole by the next update, and a Member may update them", () =>
    Effect.gen(function* () {
      const { owner, settings, tenants } = yield* setUp
      const member = yield* aUser("member@example.com")
      yield* tenants.addMember(owner, "acme-builders", { email: member.email, role: "Member" })
      yield* settings.setCisDetails(owner, "acme-builders", typed)
      const company = yield* settings.setCisDetails(member, "acme-builders", {
        type: "Company",
        tradingName: "Acme Builders Ltd",
        companyNumber: "sc 1234"
      })
      expect(Schema.encodeSync(CisDetails)(company)).toEqual({
        type: "Company",
        title: null,
        firstName: null,
        secondName: null,
        lastName: null,
        tradingName: "Acme Builders Ltd",
        utr: null,
        niNumber: null,
        companyNumber: "SC001234",
        partnerUtr: null
      })
      expect(yield* settings.cisDetails(owner, "acme-builders")).toEqual(Option.some(company))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuse invalid codes naming each member, and keep the details as they were", () =>
    Effect.gen(function* () {
      const { owner, settings } = yield* setUp
      yield* settings.setCisDetails(owner, "acme-builders", typed)
      const error = yield* Effect.flip(
        settings.setCisDetails(owner, "acme-builders", {
          type: "Company",
          utr: "1234567890",
          niNumber: "TN123456A",
          companyNumber: "123456789"
        })
      )
      assert(error instanceof ValidationFailed)
      expect(Object.keys(error.errors).sort()).toEqual(["companyNumber", "niNumber", "utr"])
      expect(error.detail).toBe("3 members are invalid: utr, niNumber, companyNumber. See errors for each one.")
      expect(yield* settings.cisDetails(owner, "acme-builders")).toEqual(Option.some(stored))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuse a name HMRC's forms cannot take, naming the member with HMRC's rule, and keep the details", () =>
    Effect.gen(function* () {
      const { owner, settings } = yield* setUp
      yield* settings.setCisDetails(owner, "acme-builders", typed)
      const error = yield* Effect.flip(
        settings.setCisDetails(owner, "acme-builders", { type: "Company", tradingName: "T".repeat(57) })
      )
      assert(error instanceof ValidationFailed)
      expect(Object.keys(error.errors)).toEqual(["tradingName"])
      expect(error.errors.tradingName?.[0]).toMatch(/^HMRC takes a name of 1–56 characters/)
      expect(yield* settings.cisDetails(owner, "acme-builders")).toEqual(Option.some(stored))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("are Forbidden to a non-member, whatever they send, and NotFound for an unknown tenant", () =>
    Effect.gen(function* () {
      const { owner, settings } = yield* setUp
      const stranger = yield* aUser("stranger@example.com")
      const notMember = new Forbidden({ detail: "You are not a member of the tenant acme-builders." })
      expect(yield* Effect.flip(settings.cisDetails(stranger, "acme-builders"))).toEqual(notMember)
      expect(yield* Effect.flip(settings.setCisDetails(stranger, "acme-builders", typed))).toEqual(notMember)
      expect(
        yield* Effect.flip(settings.setCisDetails(stranger, "acme-builders", { type: "Trust", utr: "nonsense" }))
      ).toEqual(notMember)
      expect(yield* settings.cisDetails(owner, "acme-builders")).toEqual(Option.none())
      const unknown = new NotFound({ detail: "There is no tenant with the code no-such-tenant." })
      expect(yield* Effect.flip(settings.cisDetails(owner, "no-such-tenant"))).toEqual(unknown)
      expect(yield* Effect.flip(settings.setCisDetails(owner, "no-such-tenant", typed))).toEqual(unknown)
    }).pipe(Effect.provide(testApp()))
  )
})
