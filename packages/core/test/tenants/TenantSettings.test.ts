import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { CisDetails } from "../../src/cis/CisDetails.js"
import { NotFound, ValidationFailed } from "../../src/Errors.js"
import { NotAMember } from "../../src/tenants/NotAMember.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { asMember, asUser, aUser, testApp } from "../TestApp.js"

const acme = { code: TenantCode.make("acme-builders"), name: "Acme Builders", email: null }

/** An owner of acme-builders, and the use cases. */
const setUp = Effect.gen(function* () {
  const tenants = yield* Tenants
  const settings = yield* TenantSettings
  const owner = yield* aUser("owner@example.com")
  yield* tenants.create(acme).pipe(asUser(owner))
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
      expect(yield* settings.cisDetails().pipe(asMember(owner, "acme-builders"))).toEqual(Option.none())
      const saved = yield* settings.setCisDetails(typed).pipe(asMember(owner, "acme-builders"))
      expect(saved).toEqual(stored)
      expect(yield* settings.cisDetails().pipe(asMember(owner, "acme-builders"))).toEqual(Option.some(stored))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("are replaced whole by the next update, and a Member may update them", () =>
    Effect.gen(function* () {
      const { owner, settings, tenants } = yield* setUp
      const member = yield* aUser("member@example.com")
      yield* tenants.addMember({ email: member.email, role: "Member" }).pipe(asMember(owner, "acme-builders"))
      yield* settings.setCisDetails(typed).pipe(asMember(owner, "acme-builders"))
      const company = yield* settings
        .setCisDetails({
          type: "Company",
          tradingName: "Acme Builders Ltd",
          companyNumber: "sc 1234"
        })
        .pipe(asMember(member, "acme-builders"))
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
      expect(yield* settings.cisDetails().pipe(asMember(owner, "acme-builders"))).toEqual(Option.some(company))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuse invalid codes naming each member, and keep the details as they were", () =>
    Effect.gen(function* () {
      const { owner, settings } = yield* setUp
      yield* settings.setCisDetails(typed).pipe(asMember(owner, "acme-builders"))
      const error = yield* Effect.flip(
        settings
          .setCisDetails({
            type: "Company",
            utr: "1234567890",
            niNumber: "TN123456A",
            companyNumber: "123456789"
          })
          .pipe(asMember(owner, "acme-builders"))
      )
      assert(error instanceof ValidationFailed)
      expect(Object.keys(error.errors).sort()).toEqual(["companyNumber", "niNumber", "utr"])
      expect(error.detail).toBe("3 members are invalid: utr, niNumber, companyNumber. See errors for each one.")
      expect(yield* settings.cisDetails().pipe(asMember(owner, "acme-builders"))).toEqual(Option.some(stored))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuse a name HMRC's forms cannot take, naming the member with HMRC's rule, and keep the details", () =>
    Effect.gen(function* () {
      const { owner, settings } = yield* setUp
      yield* settings.setCisDetails(typed).pipe(asMember(owner, "acme-builders"))
      const error = yield* Effect.flip(
        settings.setCisDetails({ type: "Company", tradingName: "T".repeat(57) }).pipe(asMember(owner, "acme-builders"))
      )
      assert(error instanceof ValidationFailed)
      expect(Object.keys(error.errors)).toEqual(["tradingName"])
      expect(error.errors.tradingName?.[0]).toMatch(/^HMRC takes a name of 1–56 characters/)
      expect(yield* settings.cisDetails().pipe(asMember(owner, "acme-builders"))).toEqual(Option.some(stored))
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("are refused to a non-member (NotAMember), whatever they send, and NotFound for an unknown tenant", () =>
    Effect.gen(function* () {
      const { owner, settings } = yield* setUp
      const stranger = yield* aUser("stranger@example.com")
      const notMember = new NotAMember({
        tenantCode: TenantCode.make("acme-builders"),
        detail: "You are not a member of the tenant acme-builders."
      })
      expect(yield* Effect.flip(settings.cisDetails().pipe(asMember(stranger, "acme-builders")))).toEqual(notMember)
      expect(yield* Effect.flip(settings.setCisDetails(typed).pipe(asMember(stranger, "acme-builders")))).toEqual(
        notMember
      )
      expect(
        yield* Effect.flip(
          settings.setCisDetails({ type: "Trust", utr: "nonsense" }).pipe(asMember(stranger, "acme-builders"))
        )
      ).toEqual(notMember)
      expect(yield* settings.cisDetails().pipe(asMember(owner, "acme-builders"))).toEqual(Option.none())
      const unknown = new NotFound({ detail: "There is no tenant with the code no-such-tenant." })
      expect(yield* Effect.flip(settings.cisDetails().pipe(asMember(owner, "no-such-tenant")))).toEqual(unknown)
      expect(yield* Effect.flip(settings.setCisDetails(typed).pipe(asMember(owner, "no-such-tenant")))).toEqual(unknown)
    }).pipe(Effect.provide(testApp()))
  )
})
