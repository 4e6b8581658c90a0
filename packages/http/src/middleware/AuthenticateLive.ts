import { Unauthorized } from "@cisbook/core/Errors"
import { type RateLimited, RateLimits } from "@cisbook/core/system/RateLimits"
import { Authentication } from "@cisbook/core/authentication/Authentication"
import { Authenticate } from "@cisbook/sdk/Authenticate"
import { TooManyRequests } from "@cisbook/sdk/Problem"
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Duration, Effect, Layer } from "effect"
import { clientAddress, TrustedProxiesConfig } from "./ClientAddress.js"

const noCredentials = new Unauthorized({
  detail: "Send an API key in the x-api-key header, or an access token as 'Authorization: Bearer <token>'."
})

/** Two credentials may stand for two users (or one valid and one not): which one acts would be a guess. */
export const twoCredentials = new Unauthorized({
  detail:
    "The request carries two credentials, an API key (x-api-key) and a bearer token (Authorization); send one of them, not both."
})

const malformedAuthorization = new Unauthorized({
  detail: "The Authorization header must have the form 'Bearer <token>'."
})

const tooManyDetail: Record<RateLimited["limit"], (seconds: number) => string> = {
  AuthenticationFailures: (seconds) =>
    `Too many failed authentications from your address; try again in ${seconds} seconds.`,
  Requests: (seconds) => `You have made more requests than your limit allows; try again in ${seconds} seconds.`
}

/** 429 with Retry-After in whole seconds (the header goes on whatever response the failure becomes). */
const tooManyRequests = (limited: RateLimited) => {
  const seconds = Math.max(1, Math.ceil(Duration.toSeconds(limited.retryAfter)))
  return HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(seconds)))
  ).pipe(
    Effect.zipRight(
      Effect.fail(new TooManyRequests({ detail: tooManyDetail[limited.limit](seconds), retryAfter: seconds }))
    )
  )
}

/**
 * The platform runs one handler per security scheme, each after the one before failed. The API
 * key's handler only hands on, and the bearer's (the last) authenticates from both headers, so
 * that each request is counted once by the rate limits: a blocked client address is refused
 * before its credential is looked at, a credential presented and refused counts against its
 * address (a request without any does not), and an authenticated request against its user's budget.
 */
export const AuthenticateLive = Layer.effect(
  Authenticate,
  Effect.gen(function* () {
    const authentication = yield* Authentication
    const limits = yield* RateLimits
    const trustedProxies = yield* TrustedProxiesConfig

    // The platform strips seven characters without checking that they say "Bearer ": check here.
    const byBearer = (header: string) => {
      const match = /^bearer +(\S+)\s*$/i.exec(header)
      return match?.[1] === undefined ? Effect.fail(malformedAuthorization) : authentication.byBearerToken(match[1])
    }

    /** The one credential the request carries: an API key or a bearer token, never both, whether or not either is valid. */
    const byHeaders = (request: HttpServerRequest.HttpServerRequest) => {
      const key = request.headers["x-api-key"] ?? ""
      const authorization = request.headers["authorization"] ?? ""
      if (key === "" && authorization === "") return Effect.fail(noCredentials)
      if (key !== "" && authorization !== "") return Effect.fail(twoCredentials)
      return key === "" ? byBearer(authorization) : authentication.byApiKey(key)
    }

    const authenticate = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const address = clientAddress(request.remoteAddress, request.headers["x-forwarded-for"], trustedProxies)
      yield* limits.mayAuthenticate(address)
      // Only a credential presented and refused counts: a request that brings none has tried nothing.
      const principal = yield* byHeaders(request).pipe(
        Effect.tapError((error) => (error === noCredentials ? Effect.void : limits.authenticationFailed(address)))
      )
      yield* limits.request(principal.user.id)
      return principal
    }).pipe(Effect.catchTag("RateLimited", tooManyRequests))

    return Authenticate.of({
      apiKey: () => Effect.fail(noCredentials),
      bearer: () => authenticate
    })
  })
)
