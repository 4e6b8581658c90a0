import { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { HmrcCredentialsRepo } from "@cisbook/core/credentials/HmrcCredentialsRepo"
import { expect } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { at, type ContractIt, storedTenant } from "./Fixtures.js"

const credentials = (gatewayUserId: string, password: string, filer: "Contractor" | "Agent" = "Contractor") =>
  new SenderCredentials({ gatewayUserId, password: Redacted.make(password), filer })

const shown = (found: Option.Option<{ credentials: SenderCredentials; status: string; updatedAt: Date }>) =>
  Option.map(found, ({ credentials: c, status, updatedAt }) => ({
    gatewayUserId: c.gatewayUserId,
    password: Redacted.value(c.password),
    filer: c.filer,
    status,
    updatedAt
  }))

export const hmrcCredentialsRepoContract = (it: ContractIt) => {
  it.effect("has none until set; then the ones set, Unchecked, password and all; replaced whole", () =>
    Effect.gen(function* () {
      const repo = yield* HmrcCredentialsRepo
      const tenant = yield* storedTenant
      expect(yield* repo.find(tenant.id)).toEqual(Option.none())
      yield* repo.set(tenant.id, credentials("123456789012", "s3cret pass"), at(1))
      expect(shown(yield* repo.find(tenant.id))).toEqual(
        Option.some({
          gatewayUserId: "123456789012",
          password: "s3cret pass",
          filer: "Contractor",
          status: "Unchecked",
          updatedAt: at(1)
        })
      )
      yield* repo.recordStatus(tenant.id, at(1), "Refused")
      yield* repo.set(tenant.id, credentials("AGENT0001", "другой", "Agent"), at(2))
      expect(shown(yield* repo.findForUpdate(tenant.id))).toEqual(
        Option.some({
          gatewayUserId: "AGENT0001",
          password: "другой",
          filer: "Agent",
          status: "Unchecked",
          updatedAt: at(2)
        })
      )
    })
  )

  it.effect("records HMRC's answer only for the credentials it was sent with", () =>
    Effect.gen(function* () {
      const repo = yield* HmrcCredentialsRepo
      const tenant = yield* storedTenant
      expect(yield* repo.recordStatus(tenant.id, at(1), "Accepted")).toBe(false)
      yield* repo.set(tenant.id, credentials("U1", "p1"), at(1))
      expect(yield* repo.recordStatus(tenant.id, at(1), "Accepted")).toBe(true)
      expect(Option.map(yield* repo.find(tenant.id), (c) => c.status)).toEqual(Option.some("Accepted"))
      yield* repo.set(tenant.id, credentials("U1", "p2"), at(2))
      // An answer to a message sent with the old ones leaves the new ones as they are.
      expect(yield* repo.recordStatus(tenant.id, at(1), "Refused")).toBe(false)
      expect(Option.map(yield* repo.find(tenant.id), (c) => c.status)).toEqual(Option.some("Unchecked"))
      expect(yield* repo.recordStatus(tenant.id, at(2), "Refused")).toBe(true)
      expect(Option.map(yield* repo.find(tenant.id), (c) => c.status)).toEqual(Option.some("Refused"))
    })
  )

  it.effect("keeps each tenant's apart; removing them leaves none (false when there were none)", () =>
    Effect.gen(function* () {
      const repo = yield* HmrcCredentialsRepo
      const mine = yield* storedTenant
      const theirs = yield* storedTenant
      yield* repo.set(mine.id, credentials("MINE", "mine"), at(1))
      yield* repo.set(theirs.id, credentials("THEIRS", "theirs"), at(1))
      expect(Option.map(yield* repo.find(mine.id), (c) => Redacted.value(c.credentials.password))).toEqual(
        Option.some("mine")
      )
      expect(yield* repo.remove(mine.id)).toBe(true)
      expect(yield* repo.remove(mine.id)).toBe(false)
      expect(yield* repo.find(mine.id)).toEqual(Option.none())
      expect(Option.map(yield* repo.find(theirs.id), (c) => c.credentials.gatewayUserId)).toEqual(Option.some("THEIRS"))
      // Under one key throughout, nothing needs re-sealing.
      expect(yield* repo.reseal()).toBe(0)
    })
  )
}
