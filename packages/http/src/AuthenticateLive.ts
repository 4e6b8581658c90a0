import { Unauthorized } from "@cisbook/core/Errors"
import { invalidApiKey } from "@cisbook/core/usecases/ApiKeys"
import { Authentication } from "@cisbook/core/usecases/Authentication"
import { Authenticate } from "@cisbook/sdk/Authenticate"
import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"

const noCredentials = new Unauthorized({
  detail: "Send an API key in the x-api-key header, or an access token as 'Authorization: Bearer <token>'."
})

const malformedAuthorization = new Unauthorized({
  detail: "The Authorization header must have the form 'Bearer <token>'."
})

/**
 * The API key is tried first and the bearer token second (the platform's order). The bearer
 * step reads the raw header itself: the platform strips seven characters without checking
 * that they say "Bearer ", and when the header is absent it must report the API key's fault.
 */
export const AuthenticateLive = Layer.effect(
  Authenticate,
  Effect.gen(function* () {
    const authentication = yield* Authentication
    return Authenticate.of({
      apiKey: (key) => {
        const value = Redacted.value(key)
        return value === "" ? Effect.fail(noCredentials) : authentication.byApiKey(value)
      },
      bearer: () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const header = request.headers["authorization"]
          if (header === undefined || header === "") {
            return yield* request.headers["x-api-key"] ? invalidApiKey : noCredentials
          }
          const match = /^bearer +(\S+)\s*$/i.exec(header)
          if (match?.[1] === undefined) return yield* malformedAuthorization
          return yield* authentication.byBearerToken(match[1])
        })
    })
  })
)
