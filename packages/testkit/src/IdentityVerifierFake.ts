import { Unauthorized } from "@cisbook/core/Errors"
import { IdentityVerifier } from "@cisbook/core/users/IdentityVerifier"
import type { IdentityClaims } from "@cisbook/core/users/User"
import { Effect, Layer } from "effect"

/** Accepts exactly the tokens it is given, each standing for its claims. */
export const identityVerifierFake = (tokens: Readonly<Record<string, IdentityClaims>>) =>
  Layer.succeed(
    IdentityVerifier,
    IdentityVerifier.of({
      verify: (token) => {
        const claims = tokens[token]
        return claims
          ? Effect.succeed(claims)
          : Effect.fail(new Unauthorized({ detail: "The bearer token is not valid." }))
      }
    })
  )
