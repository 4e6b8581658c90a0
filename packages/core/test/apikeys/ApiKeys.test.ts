import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ApiKey } from "../../src/apikeys/ApiKey.js"
import { NotFound, Unauthorized } from "../../src/Errors.js"
import { ApiKeyRepo } from "../../src/apikeys/ApiKeyRepo.js"
import { Crypto } from "../../src/system/Crypto.js"
import { ApiKeys } from "../../src/apikeys/ApiKeys.js"
import { Authentication } from "../../src/authentication/Authentication.js"
import { asUser, aUser, testApp } from "../TestApp.js"

const invalidKey = new Unauthorized({
  detail: "The API key is not valid. Check the x-api-key header, or create a new key."
})

/** The user's live keys as the list shows them: [name, lastUsedAt]. */
const lastUsed = (user: { readonly id: string }) =>
  Effect.flatMap(ApiKeyRepo, (repo) => repo.listByUser(user.id as ApiKey["userId"])).pipe(
    Effect.map((keys) => keys.map((k) => [k.name, k.lastUsedAt?.toISOString() ?? null]))
  )

describe("ApiKeys.issue", () => {
  it.effect("returns cis_ and 43 base62 characters once, and stores only a hash of it", () =>
    Effect.gen(function* () {
      const user = yield* aUser("ada@example.com")
      const { apiKey, key } = yield* (yield* ApiKeys).issue("laptop").pipe(asUser(user))
      expect(key).toMatch(/^cis_[0-9A-Za-z]{43}$/)
      expect(apiKey).toBeInstanceOf(ApiKey)
      expect(apiKey).toMatchObject({
        userId: user.id,
        name: "laptop",
        prefix: key.slice(0, 10),
        createdAt: new Date("2026-11-21T09:00:00.000Z"),
        lastUsedAt: null
      })
      expect(apiKey.prefix).toHaveLength(10)

      const repo = yield* ApiKeyRepo
      const hash = yield* (yield* Crypto).sha256Hex(key)
      expect(hash).not.toBe(key)
      expect(Option.map(yield* repo.findByHash(hash), (found) => found.key.id)).toEqual(Option.some(apiKey.id))
      expect(yield* repo.findByHash(key)).toEqual(Option.none())
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("gives every key its own random part and id", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const user = yield* aUser("ada@example.com")
      const first = yield* keys.issue("one").pipe(asUser(user))
      const second = yield* keys.issue("two").pipe(asUser(user))
      expect(second.key).not.toBe(first.key)
      expect(second.apiKey.id).not.toBe(first.apiKey.id)
    }).pipe(Effect.provide(testApp()))
  )
})

describe("ApiKeys.list", () => {
  it.effect("lists the user's own live keys, newest first, without revoked ones", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const clock = yield* ManualClock
      const ada = yield* aUser("ada@example.com")
      const bob = yield* aUser("bob@example.com")
      const oldest = yield* keys.issue("oldest").pipe(asUser(ada))
      yield* clock.advance(1_000)
      const middle = yield* keys.issue("middle").pipe(asUser(ada))
      yield* clock.advance(1_000)
      yield* keys.issue("bob's").pipe(asUser(bob))
      const newest = yield* keys.issue("newest").pipe(asUser(ada))
      expect((yield* keys.list().pipe(asUser(ada))).map((k) => k.name)).toEqual(["newest", "middle", "oldest"])
      expect(yield* keys.list().pipe(asUser(ada))).toEqual([newest.apiKey, middle.apiKey, oldest.apiKey])

      yield* keys.revoke(middle.apiKey.id).pipe(asUser(ada))
      expect((yield* keys.list().pipe(asUser(ada))).map((k) => k.name)).toEqual(["newest", "oldest"])
      expect((yield* keys.list().pipe(asUser(bob))).map((k) => k.name)).toEqual(["bob's"])
    }).pipe(Effect.provide(testApp()))
  )
})

describe("ApiKeys.revoke", () => {
  it.effect("revokes the caller's own key, which then no longer authenticates", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const ada = yield* aUser("ada@example.com")
      const { apiKey, key } = yield* keys.issue("laptop").pipe(asUser(ada))
      expect(yield* keys.authenticate(key)).toEqual({ user: ada, apiKeyId: apiKey.id })
      yield* keys.revoke(apiKey.id).pipe(asUser(ada))
      expect(yield* Effect.flip(keys.authenticate(key))).toEqual(invalidKey)
      expect(yield* Effect.flip(keys.revoke(apiKey.id).pipe(asUser(ada)))).toEqual(
        new NotFound({ detail: `You have no API key with the id ${apiKey.id}.` })
      )
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("is NotFound for another user's key, which keeps working, and for a malformed id", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const ada = yield* aUser("ada@example.com")
      const mallory = yield* aUser("mallory@example.com")
      const { apiKey, key } = yield* keys.issue("laptop").pipe(asUser(ada))
      expect(yield* Effect.flip(keys.revoke(apiKey.id).pipe(asUser(mallory)))).toEqual(
        new NotFound({ detail: `You have no API key with the id ${apiKey.id}.` })
      )
      expect(yield* keys.authenticate(key)).toEqual({ user: ada, apiKeyId: apiKey.id })
      expect(yield* keys.list().pipe(asUser(ada))).toHaveLength(1)
      for (const malformed of ["not-a-uuid", `${apiKey.id}0`, "ABCDEF00-0000-4000-8000-000000000002", ""]) {
        expect(yield* Effect.flip(keys.revoke(malformed).pipe(asUser(ada)))).toEqual(
          new NotFound({ detail: `You have no API key with the id ${malformed}.` })
        )
      }
      expect(yield* keys.list().pipe(asUser(ada))).toHaveLength(1)
    }).pipe(Effect.provide(testApp()))
  )
})

describe("ApiKeys.authenticate", () => {
  it.effect("returns the key's user and the key, also through Authentication.byApiKey", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const ada = yield* aUser("ada@example.com")
      const bob = yield* aUser("bob@example.com")
      const adaKey = yield* keys.issue("a").pipe(asUser(ada))
      const bobKey = yield* keys.issue("b").pipe(asUser(bob))
      expect(yield* keys.authenticate(adaKey.key)).toEqual({ user: ada, apiKeyId: adaKey.apiKey.id })
      expect(yield* (yield* Authentication).byApiKey(bobKey.key)).toEqual({ user: bob, apiKeyId: bobKey.apiKey.id })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("refuses a malformed, an unknown or an altered key with Unauthorized", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const ada = yield* aUser("ada@example.com")
      const { key } = yield* keys.issue("laptop").pipe(asUser(ada))
      const lastChar = key.at(-1) === "A" ? "B" : "A"
      const candidates = [
        "",
        "nope",
        "cis_",
        key.slice(4), // without its prefix
        `CIS_${key.slice(4)}`,
        `${key.slice(0, -1)}-`,
        ` ${key}`,
        `cis_${"0".repeat(43)}`, // well formed, never issued
        `${key.slice(0, -1)}${lastChar}` // one character changed
      ]
      for (const candidate of candidates) {
        expect(yield* Effect.flip(keys.authenticate(candidate))).toEqual(invalidKey)
      }
      expect(yield* lastUsed(ada)).toEqual([["laptop", null]])
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("writes lastUsedAt on first use, then at most once a minute", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const clock = yield* ManualClock
      const ada = yield* aUser("ada@example.com")
      const { key } = yield* keys.issue("laptop").pipe(asUser(ada))
      expect(yield* lastUsed(ada)).toEqual([["laptop", null]])

      yield* clock.set(new Date("2026-11-21T10:00:00.000Z"))
      yield* keys.authenticate(key)
      expect(yield* lastUsed(ada)).toEqual([["laptop", "2026-11-21T10:00:00.000Z"]])

      yield* clock.advance(30_000)
      yield* keys.authenticate(key)
      expect(yield* lastUsed(ada)).toEqual([["laptop", "2026-11-21T10:00:00.000Z"]])

      yield* clock.advance(31_000)
      yield* keys.authenticate(key)
      expect(yield* lastUsed(ada)).toEqual([["laptop", "2026-11-21T10:01:01.000Z"]])

      yield* clock.advance(59_999)
      yield* keys.authenticate(key)
      expect(yield* lastUsed(ada)).toEqual([["laptop", "2026-11-21T10:01:01.000Z"]])
      yield* clock.advance(1)
      yield* keys.authenticate(key)
      expect(yield* lastUsed(ada)).toEqual([["laptop", "2026-11-21T10:02:01.000Z"]])
    }).pipe(Effect.provide(testApp()))
  )
})
