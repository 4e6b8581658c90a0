import { addressRequestLimit } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import { SandboxRateLimitConfig } from "@cisbook/adapters/ratelimits/RateLimitSettings"
import { isOwnCall, OWN_CALL_HEADER } from "@cisbook/adapters/system/OwnCalls"
import type { HttpServerRequest } from "@effect/platform"
import { Context, Duration, Effect, Layer } from "effect"
import { clientAddress, TrustedProxiesConfig } from "../middleware/ClientAddress.js"

/**
 * Whether a request to one of the sandboxes the server serves may be served: nothing when it
 * may, else the seconds after which to ask again (each sandbox answers that in its own way).
 */
export class SandboxAdmission extends Context.Tag("http/SandboxAdmission")<
  SandboxAdmission,
  (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<number | undefined>
>() {}

/**
 * The sandboxes' own budget of requests per client address (RATE_LIMIT_SANDBOX_REQUESTS a
 * window, counted in this process's memory), one for both sandboxes. It is never the
 * authentication-failure budget: no sandbox traffic refuses a signed-in request. The server's
 * own calls (its adapters', marked with this process's secret, see OwnCalls) are not counted.
 */
export const SandboxAdmissionLive = Layer.effect(
  SandboxAdmission,
  Effect.gen(function* () {
    const count = yield* Effect.flatMap(SandboxRateLimitConfig, (limit) =>
      addressRequestLimit("sandbox-requests", limit)
    )
    const trustedProxies = yield* TrustedProxiesConfig
    return (request) =>
      isOwnCall(request.headers[OWN_CALL_HEADER])
        ? Effect.succeed(undefined)
        : count(clientAddress(request.remoteAddress, request.headers["x-forwarded-for"], trustedProxies)).pipe(
            Effect.as(undefined),
            Effect.catchTag("RateLimited", (limited) =>
              Effect.succeed(Math.max(1, Math.ceil(Duration.toSeconds(limited.retryAfter))))
            )
          )
  })
)
