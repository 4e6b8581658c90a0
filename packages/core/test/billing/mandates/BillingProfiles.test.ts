import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { BillingProfiles } from "../../../src/billing/mandates/BillingProfiles.js"
import { asUser, aUser, testApp } from "../../TestApp.js"

const address = {
  companyName: " Lovelace Builders Ltd ",
  billingEmail: "Accounts@Lovelace.example",
  addressLine1: "1 Analytical Row",
  addressLine2: "  ",
  addressLine3: "London",
  postcode: "sw1a1aa",
  country: "gb"
}

describe("BillingProfiles", () => {
  it.effect("has no address and NotStarted until set; a put stores it normalised and replaces it whole", () =>
    Effect.gen(function* () {
      const profiles = yield* BillingProfiles
      const user = yield* aUser("ada@example.com")
      expect(yield* profiles.get().pipe(asUser(user))).toEqual({ address: Option.none(), mandateStatus: "NotStarted" })
      const saved = yield* profiles.put(address).pipe(asUser(user))
      expect(Option.getOrThrow(saved.address)).toMatchObject({
        companyName: "Lovelace Builders Ltd",
        billingEmail: "accounts@lovelace.example",
        addressLine2: null,
        addressLine3: "London",
        postcode: "SW1A 1AA",
        country: "GB"
      })
      const { addressLine3: _dropped, ...withoutLine3 } = address
      const replaced = yield* profiles.put({ ...withoutLine3, postcode: "D02 X285", country: "IE" }).pipe(asUser(user))
      expect(Option.getOrThrow(replaced.address)).toMatchObject({
        addressLine3: null,
        postcode: "D02 X285",
        country: "IE"
      })
      expect(yield* profiles.get().pipe(asUser(user))).toEqual(replaced)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("names every invalid member at once, and the UK postcode rule only for GB", () =>
    Effect.gen(function* () {
      const profiles = yield* BillingProfiles
      const user = yield* aUser("ada@example.com")
      const error = yield* Effect.flip(
        profiles
          .put({
            companyName: "",
            billingEmail: "nope",
            addressLine1: "x".repeat(201),
            postcode: "",
            country: "EU"
          })
          .pipe(asUser(user))
      )
      expect(Object.keys(error.errors).sort()).toEqual([
        "addressLine1",
        "billingEmail",
        "companyName",
        "country",
        "postcode"
      ])
      const postcode = yield* Effect.flip(profiles.put({ ...address, postcode: "QQ1 1QQ" }).pipe(asUser(user)))
      expect(postcode.errors).toEqual({ postcode: ["Must be a UK postcode, for example SW1A 1AA"] })
      expect(yield* profiles.get().pipe(asUser(user))).toEqual({ address: Option.none(), mandateStatus: "NotStarted" })
      yield* profiles.put({ ...address, postcode: "QQ1 1QQ", country: "US" }).pipe(asUser(user))
    }).pipe(Effect.provide(testApp()))
  )
})
