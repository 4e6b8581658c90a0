import { addressKey, rateLimitsFlexible } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import type { UserId } from "@cisbook/core/Ids"
import { RateLimits } from "@cisbook/core/system/RateLimits"
import { describe, expect, it, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Layer } from "effect"

const settings = (shared: boolean) => ({
  authenticationFailures: { points: 4, window: Duration.minutes(1) },
  requests: { points: 4, window: Duration.minutes(1), shared }
})

/** A server process's limits: its own memory, the database's counters. */
const processLimits = (shared: boolean) => Effect.provide(RateLimits, rateLimitsFlexible(settings(shared)))

describe("addressKey", () => {
  it("counts an IPv4 address as itself, mapped or not, and an IPv6 address by its /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7")
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7")
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64")
    expect(addressKey("2001:db8:1:2::9")).toBe(addressKey("2001:db8:1:2:ffff::1"))
    expect(addressKey("2001:db8:1:3::9")).not.toBe(addressKey("2001:db8:1:2::9"))
    expect(addressKey("unknown")).toBe("unknown")
    expect(addressKey("x".repeat(1000))).toHaveLength(200)
  })
})

layer(Layer.empty.pipe(Layer.provideMerge(EphemeralDatabase)), { excludeTestServices: true })(
  "rate limits in the database",
  (it) => {
    it.effect("two server processes share the counts: an address's failures, and a user's budget when shared", () =>
      Effect.gen(function* () {
        const a = yield* processLimits(true)
        const b = yield* processLimits(true)
        const user = "00000000-0000-4000-8000-000000000001" as UserId
        yield* a.request(user)
        yield* a.request(user)
        yield* b.request(user)
        yield* b.request(user)
        const over = yield* Effect.exit(a.request(user))
        expect(Exit.isFailure(over)).toBe(true)
        const limited = yield* Effect.flip(b.request(user))
        expect(limited.limit).toBe("Requests")
        expect(Duration.toSeconds(limited.retryAfter)).toBeGreaterThan(0)
        expect(Duration.toSeconds(limited.retryAfter)).toBeLessThanOrEqual(60)
        yield* a.request("00000000-0000-4000-8000-000000000002" as UserId)

        const address = "198.51.100.9"
        yield* a.authenticationFailed(address)
        yield* a.authenticationFailed(address)
        yield* b.authenticationFailed(address)
        yield* a.mayAuthenticate(address)
        yield* b.authenticationFailed(address)
        // B counted the fourth failure: it refuses the address at once, without asking the database.
        expect((yield* Effect.flip(b.mayAuthenticate(address))).limit).toBe("AuthenticationFailures")
        // A learns of it with the next failure it counts.
        yield* a.mayAuthenticate(address)
        yield* a.authenticationFailed(address)
        expect((yield* Effect.flip(a.mayAuthenticate(address))).limit).toBe("AuthenticationFailures")
        yield* a.mayAuthenticate("198.51.100.10")
      })
    )

    it.effect("by default each process counts a user's requests itself", () =>
      Effect.gen(function* () {
        const a = yield* processLimits(false)
        const b = yield* processLimits(false)
        const user = "00000000-0000-4000-8000-000000000003" as UserId
        for (let i = 0; i < 4; i++) yield* a.request(user)
        yield* b.request(user)
        expect((yield* Effect.flip(a.request(user))).limit).toBe("Requests")
      })
    )
  }
)
