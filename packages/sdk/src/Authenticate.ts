import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { TooManyRequestsProblem, UnauthorizedProblem } from "./Problem.js"

/**
 * Every request but the health check carries an API key or a bearer token: one of them, not
 * both (a request with both is refused 401, whichever is valid). 429 when the user has made too many requests, or the client's address failed to authenticate too often.
 */
export class Authenticate extends HttpApiMiddleware.Tag<Authenticate>()("sdk/Authenticate", {
  provides: CurrentUser,
  failure: Schema.Union(UnauthorizedProblem, TooManyRequestsProblem),
  security: {
    apiKey: HttpApiSecurity.apiKey({ in: "header", key: "x-api-key" }).pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "An API key (cis_...) created with POST /me/api-keys or the admin CLI. Send it alone: a request that also carries a bearer token is refused (401)."
      )
    ),
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "An access token (JWT) from the identity provider. Send it alone: a request that also carries an API key is refused (401)."
      )
    )
  }
}) {}
