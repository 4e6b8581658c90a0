import { jwksIdentityVerifier } from "@cisbook/adapters/identity/JwksIdentityVerifier"
import { IdentityVerifier } from "@cisbook/core/users/IdentityVerifier"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { AUDIENCE, ISSUER, startLocalIdentityProvider } from "./LocalIdentityProvider.js"

/** Whether a verifier allowing `clockSkewSeconds` accepts each token `sign` makes, in order. */
const accepted = (
  clockSkewSeconds: number,
  tokens: (sign: (options: object) => Promise<string>) => Array<Promise<string>>
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const idp = yield* startLocalIdentityProvider
      const verifier = yield* Effect.provide(
        IdentityVerifier,
        jwksIdentityVerifier({ jwksUrl: idp.jwksUrl, issuer: ISSUER, audience: AUDIENCE, clockSkewSeconds })
      )
      const signed = yield* Effect.promise(() =>
        Promise.all(tokens((options) => idp.sign({ sub: "sub-skew" }, options)))
      )
      return yield* Effect.forEach(signed, (token) => Effect.map(Effect.either(verifier.verify(token)), Either.isRight))
    })
  )

describe("AUTH_CLOCK_SKEW_SECONDS: the clock skew a bearer token's times are allowed", () => {
  it.live("a token expired within the skew is accepted, one expired beyond it refused", () =>
    Effect.gen(function* () {
      const tokens = (sign: (options: object) => Promise<string>) => [
        sign({ expiresIn: "-5s" }),
        sign({ expiresIn: "-20s" }),
        sign({ expiresIn: "-45s" })
      ]
      expect(yield* accepted(10, tokens)).toEqual([true, false, false])
      expect(yield* accepted(30, tokens)).toEqual([true, true, false])
      expect(yield* accepted(0, tokens)).toEqual([false, false, false])
    })
  )

  it.live("a token issued ahead of our clock within the skew is accepted, beyond it refused", () =>
    Effect.gen(function* () {
      const now = Math.floor(Date.now() / 1000)
      const tokens = (sign: (options: object) => Promise<string>) => [
        sign({ issuedAt: now + 5, expiresIn: "10m" }),
        sign({ issuedAt: now + 20, expiresIn: "10m" })
      ]
      expect(yield* accepted(10, tokens)).toEqual([true, false])
      expect(yield* accepted(30, tokens)).toEqual([true, true])
    })
  )
})
