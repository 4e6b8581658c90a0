import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { TenantSettingsRepo } from "@cisbook/core/tenants/TenantSettingsRepo"
import { expect } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { otherCisScheme, sampleCisScheme } from "../CisSchemeFixtures.js"
import { type ContractIt, storedTenant } from "./Fixtures.js"

const soleTrader = Schema.decodeUnknownSync(CisDetails)({
  type: "SoleTrader",
  title: "Ms",
  firstName: "Ada",
  secondName: "Augusta",
  lastName: "Lovelace",
  tradingName: "Lovelace Joinery",
  utr: "2234567890",
  niNumber: "AB123456C",
  companyNumber: null
})

const company = Schema.decodeUnknownSync(CisDetails)({ type: "Company", companyNumber: "SC001234" })

export const tenantSettingsRepoContract = (it: ContractIt) => {
  it.effect("has no CIS details for a tenant until they are set, then the ones set", () =>
    Effect.gen(function* () {
      const repo = yield* TenantSettingsRepo
      const tenant = yield* storedTenant
      expect(yield* repo.getCisDetails(tenant.id)).toEqual(Option.none())
      yield* repo.setCisDetails(tenant.id, soleTrader)
      expect(yield* repo.getCisDetails(tenant.id)).toEqual(Option.some(soleTrader))
    })
  )

  it.effect("replaces the CIS details whole, clearing members the new ones lack", () =>
    Effect.gen(function* () {
      const repo = yield* TenantSettingsRepo
      const tenant = yield* storedTenant
      yield* repo.setCisDetails(tenant.id, soleTrader)
      yield* repo.setCisDetails(tenant.id, company)
      const stored = yield* repo.getCisDetails(tenant.id)
      expect(stored).toEqual(Option.some(company))
      expect(Option.map(stored, (d) => [d.firstName, d.utr, d.niNumber])).toEqual(Option.some([null, null, null]))
    })
  )

  it.effect("keeps each tenant's CIS details apart", () =>
    Effect.gen(function* () {
      const repo = yield* TenantSettingsRepo
      const mine = yield* storedTenant
      const theirs = yield* storedTenant
      const untouched = yield* storedTenant
      yield* repo.setCisDetails(mine.id, soleTrader)
      yield* repo.setCisDetails(theirs.id, company)
      expect(yield* repo.getCisDetails(mine.id)).toEqual(Option.some(soleTrader))
      expect(yield* repo.getCisDetails(theirs.id)).toEqual(Option.some(company))
      expect(yield* repo.getCisDetails(untouched.id)).toEqual(Option.none())
    })
  )

  it.effect(
    "has no CIS scheme until it is set, then the one set with its registration date, replaced whole, apart from the CIS details",
    () =>
      Effect.gen(function* () {
        const repo = yield* TenantSettingsRepo
        const tenant = yield* storedTenant
        expect(yield* repo.getCisScheme(tenant.id)).toEqual(Option.none())
        expect(yield* repo.getRegisteredFrom(tenant.id)).toEqual(Option.none())
        yield* repo.setCisScheme(tenant.id, sampleCisScheme, "2025-04-06")
        expect(yield* repo.getCisScheme(tenant.id)).toEqual(Option.some(sampleCisScheme))
        expect(yield* repo.getRegisteredFrom(tenant.id)).toEqual(Option.some("2025-04-06"))
        expect(yield* repo.getCisDetails(tenant.id)).toEqual(Option.none())
        yield* repo.setCisDetails(tenant.id, company)
        yield* repo.setCisScheme(tenant.id, otherCisScheme, "2024-12-31")
        expect(yield* repo.getCisScheme(tenant.id)).toEqual(Option.some(otherCisScheme))
        expect(yield* repo.getRegisteredFrom(tenant.id)).toEqual(Option.some("2024-12-31"))
        expect(yield* repo.getCisDetails(tenant.id)).toEqual(Option.some(company))
      })
  )

  it.effect("keeps each tenant's CIS scheme apart, and CIS details set first leave the scheme unset", () =>
    Effect.gen(function* () {
      const repo = yield* TenantSettingsRepo
      const mine = yield* storedTenant
      const theirs = yield* storedTenant
      yield* repo.setCisDetails(theirs.id, soleTrader)
      expect(yield* repo.getCisScheme(theirs.id)).toEqual(Option.none())
      yield* repo.setCisScheme(mine.id, sampleCisScheme, "2025-04-06")
      yield* repo.setCisScheme(theirs.id, otherCisScheme, "2026-01-20")
      expect(yield* repo.getRegisteredFrom(mine.id)).toEqual(Option.some("2025-04-06"))
      expect(yield* repo.getRegisteredFrom(theirs.id)).toEqual(Option.some("2026-01-20"))
      expect(yield* repo.getCisScheme(mine.id)).toEqual(Option.some(sampleCisScheme))
      expect(yield* repo.getCisScheme(theirs.id)).toEqual(Option.some(otherCisScheme))
      expect(yield* repo.getCisDetails(theirs.id)).toEqual(Option.some(soleTrader))
    })
  )
}
