import { addressRequestLimit } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import { SandboxRateLimitConfig } from "@cisbook/adapters/ratelimits/RateLimitSettings"
import { isOwnCall, OWN_CALL_HEADER } from "@cisbook/adapters/system/OwnCalls"
import type { HttpServerRequest } from "@effect/platform"
import type { SandboxAdmitted } from "@cisbook/fakes/gocardless/SandboxRoutes"
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { clientAddress, TrustedProxiesConfig } from "../middleware/ClientAddress.js"

/**
 * Whether a request to one of the sandboxes the server serves may be served: `retryAfterSeconds`
 * when it may not (each sandbox answers that in its own way), and the client's budget as it
 * stands when it was counted (the GoCardless sandbox tells it in GoCardless's RateLimit-* headers).
 */
export class SandboxAdmission extends Context.Tag("http/SandboxAdmission")<
  SandboxAdmission,
  (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<SandboxAdmitted>
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
    const limit = yield* SandboxRateLimitConfig
    const count = yield* addressRequestLimit("sandbox-requests", limit)
    const trustedProxies = yield* TrustedProxiesConfig
    const budget = (remaining: number, resetAfter: Duration.Duration) =>
      Effect.map(Clock.currentTimeMillis, (now) => ({
        limit: limit.points,
        remaining,
        resetsAt: new Date(now + Duration.toMillis(resetAfter))
      }))
    return (request) =>
      isOwnCall(request.headers[OWN_CALL_HEADER])
        ? Effect.succeed({})
        : count(clientAddress(request.remoteAddress, request.headers["x-forwarded-for"], trustedProxies)).pipe(
            Effect.flatMap((left): Effect.Effect<SandboxAdmitted> =>
              left === undefined
                ? Effect.succeed({})
                : Effect.map(budget(left.remaining, left.resetAfter), (counted) => ({ budget: counted }))
            ),
            Effect.catchTag("RateLimited", (limited) =>
              Effect.map(budget(0, limited.retryAfter), (counted) => ({
                retryAfterSeconds: Math.max(1, Math.ceil(Duration.toSeconds(limited.retryAfter))),
                budget: counted
              }))
            )
          )
  })
)
