import { Effect } from "effect"
import { Unauthorized } from "../Errors.js"
import { ApiKeys } from "../apikeys/ApiKeys.js"
import { IdentityVerifier } from "../users/IdentityVerifier.js"
import type { Principal } from "../users/CurrentUser.js"
import { Users } from "../users/Users.js"

/** Who a request's credential stands for: an API key (and its user), or an identity-provider token's user. */
export class Authentication extends Effect.Service<Authentication>()("core/Authentication", {
  effect: Effect.gen(function* () {
    const keys = yield* ApiKeys
    const users = yield* Users
    const verifier = yield* IdentityVerifier

    const byApiKey = (key: string) => keys.authenticate(key)

    const byBearerToken = (token: string): Effect.Effect<Principal, Unauthorized> =>
      verifier.verify(token).pipe(
        Effect.flatMap(users.fromClaims),
        Effect.map((user) => ({ user, apiKeyId: null })),
        Effect.catchTag("ValidationFailed", () =>
          Effect.fail(new Unauthorized({ detail: "The token's email claim is not a valid email address." }))
        ),
        Effect.withSpan("Authentication.byBearerToken")
      )

    return { byApiKey, byBearerToken } as const
  })
}) {}
