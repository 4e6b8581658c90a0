import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Exit, Fiber, Layer, Option, Ref, TestClock } from "effect"
import { Email } from "../src/Email.js"
import { Unauthorized } from "../src/Errors.js"
import { cacheFound, LookupCacheTtl } from "../src/LookupCache.js"
import { ApiKeyRepo } from "../src/apikeys/ApiKeyRepo.js"
import { NotAMember } from "../src/tenants/NotAMember.js"
import { TenantRepo } from "../src/tenants/TenantRepo.js"
import { TenantCode } from "../src/tenants/Tenant.js"
import { UseCasesLive } from "../src/UseCases.js"
import { ApiKeys } from "../src/apikeys/ApiKeys.js"
import { Tenants } from "../src/tenants/Tenants.js"
import { asMember, asUser, aUser, testApp } from "./TestApp.js"

const invalidKey = new Unauthorized({
  detail: "The API key is not valid. Check the x-api-key header, or create a new key."
})

class AccessReads extends Effect.Service<AccessReads>()("test/AccessReads", { effect: Ref.make(0) }) {}

/** The tenant repository, counting the membership reads that reach it. */
const CountedTenantRepo = Layer.effect(
  TenantRepo,
  Effect.gen(function* () {
    const repo = yield* TenantRepo
    const reads = yield* AccessReads
    return {
      ...repo,
      findAccess: (code, userId) => Ref.update(reads, (n) => n + 1).pipe(Effect.zipRight(repo.findAccess(code, userId)))
    }
  })
)

const countingApp = UseCasesLive.pipe(
  Layer.provideMerge(CountedTenantRepo),
  Layer.provideMerge(Layer.mergeAll(MemoryPorts, identityVerifierFake({}), AccessReads.Default))
)

const acme = { code: TenantCode.make("acme-builders"), name: "Acme Builders", email: null }

describe("API keys, as the lookup cache keeps them", () => {
  it.effect("a key revoked by another server process stops working once the cache time has passed", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const ada = yield* aUser("ada@example.com")
      const { apiKey, key } = yield* keys.issue("laptop").pipe(asUser(ada))
      expect(yield* keys.authenticate(key)).toEqual({ user: ada, apiKeyId: apiKey.id })

      yield* (yield* ApiKeyRepo).revoke(ada.id, apiKey.id, new Date())
      yield* TestClock.adjust(Duration.seconds(9))
      expect(yield* keys.authenticate(key)).toEqual({ user: ada, apiKeyId: apiKey.id })
      yield* TestClock.adjust(Duration.seconds(2))
      expect(yield* Effect.flip(keys.authenticate(key))).toEqual(invalidKey)
    }).pipe(Effect.provide(testApp()))
  )

  it.effect("with a cache time of zero, a revocation elsewhere is seen on the next request", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const ada = yield* aUser("ada@example.com")
      const { apiKey, key } = yield* keys.issue("laptop").pipe(asUser(ada))
      expect(yield* keys.authenticate(key)).toEqual({ user: ada, apiKeyId: apiKey.id })
      yield* (yield* ApiKeyRepo).revoke(ada.id, apiKey.id, new Date())
      expect(yield* Effect.flip(keys.authenticate(key))).toEqual(invalidKey)
    }).pipe(Effect.provide(testApp()), Effect.provide(Layer.succeed(LookupCacheTtl, Duration.zero)))
  )
})

describe("memberships, as the lookup cache keeps them", () => {
  it.effect("a member's access is read once per cache time", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const reads = yield* AccessReads
      const owner = yield* aUser("owner@example.com")
      yield* tenants.create(acme).pipe(asUser(owner))
      yield* tenants.access("acme-builders").pipe(asUser(owner))
      yield* tenants.access("acme-builders").pipe(asUser(owner))
      expect(yield* Ref.get(reads)).toBe(1)
      yield* TestClock.adjust(Duration.seconds(11))
      yield* tenants.access("acme-builders").pipe(asUser(owner))
      expect(yield* Ref.get(reads)).toBe(2)
    }).pipe(Effect.provide(countingApp))
  )

  it.effect("a refusal is never kept: a user added as a member gets in at once", () =>
    Effect.gen(function* () {
      const tenants = yield* Tenants
      const owner = yield* aUser("owner@example.com")
      const bob = yield* aUser("bob@example.com")
      yield* tenants.create(acme).pipe(asUser(owner))
      expect(yield* Effect.flip(tenants.access("acme-builders").pipe(asUser(bob)))).toEqual(
        new NotAMember({
          tenantCode: TenantCode.make("acme-builders"),
          detail: "You are not a member of the tenant acme-builders."
        })
      )
      yield* tenants
        .addMember({ email: Email.make("bob@example.com"), role: "Member" })
        .pipe(asMember(owner, "acme-builders"))
      expect((yield* tenants.access("acme-builders").pipe(asUser(bob))).role).toBe("Member")
    }).pipe(Effect.provide(countingApp))
  )
})

describe("the lookup cache", () => {
  /** A lookup that counts its reads and dies (a database busy just now) on the ones `failing` names. */
  const countedLookup = (failing: (read: number) => boolean) =>
    Effect.map(Ref.make(0), (reads) => ({
      reads,
      lookup: (key: string) =>
        Ref.updateAndGet(reads, (n) => n + 1).pipe(
          Effect.flatMap((read) =>
            failing(read) ? Effect.die(new Error("the database is busy")) : Effect.succeed(Option.some(`found ${key}`))
          )
        )
    }))

  it.effect("a failed lookup is not kept: the next request reads again", () =>
    Effect.gen(function* () {
      const { lookup, reads } = yield* countedLookup((read) => read === 1)
      const cache = yield* cacheFound(lookup)
      expect(Exit.isFailure(yield* Effect.exit(cache.get("a")))).toBe(true)
      expect(yield* cache.get("a")).toEqual(Option.some("found a"))
      expect(yield* cache.get("a")).toEqual(Option.some("found a"))
      expect(yield* Ref.get(reads)).toBe(2)
    })
  )

  it.effect("a lookup under way when everything is invalidated does not keep what it read", () =>
    Effect.gen(function* () {
      const reads = yield* Ref.make(0)
      const reading = yield* Deferred.make<void>()
      const answer = yield* Deferred.make<void>()
      const lookup = (key: string) =>
        Ref.updateAndGet(reads, (n) => n + 1).pipe(
          Effect.tap((read) =>
            read === 1
              ? Deferred.succeed(reading, undefined).pipe(Effect.zipRight(Deferred.await(answer)))
              : Effect.void
          ),
          Effect.as(Option.some(`found ${key}`))
        )
      const cache = yield* cacheFound(lookup)
      const first = yield* Effect.fork(cache.get("a"))
      yield* Deferred.await(reading)
      yield* cache.invalidateAll
      yield* Deferred.succeed(answer, undefined)
      expect(yield* Fiber.join(first)).toEqual(Option.some("found a"))
      expect(yield* cache.get("a")).toEqual(Option.some("found a"))
      expect(yield* Ref.get(reads)).toBe(2)
      expect(yield* cache.get("a")).toEqual(Option.some("found a"))
      expect(yield* Ref.get(reads)).toBe(2)
    })
  )

  it.effect("beyond 10,000 keys the oldest kept is read again", () =>
    Effect.gen(function* () {
      const { lookup, reads } = yield* countedLookup(() => false)
      const cache = yield* cacheFound(lookup)
      for (let key = 0; key <= 10_000; key++) yield* cache.get(String(key))
      expect(yield* Ref.get(reads)).toBe(10_001)
      yield* cache.get("10000")
      yield* cache.get("1")
      expect(yield* Ref.get(reads)).toBe(10_001)
      yield* cache.get("0")
      expect(yield* Ref.get(reads)).toBe(10_002)
    })
  )
})
