import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { TooManyRequestsProblem, UnauthorizedProblem } from "./Problem.js"

/**
 * Every request but the health check carries an API key or a bearer token; either one is enough.
 * 429 when the user has made too many requests, or the client's address failed to authenticate too often.
 */
export class Authenticate extends HttpApiMiddleware.Tag<Authenticate>()("sdk/Authenticate", {
  provides: CurrentUser,
  failure: Schema.Union(UnauthorizedProblem, TooManyRequestsProblem),
  security: {
    apiKey: HttpApiSecurity.apiKey({ in: "header", key: "x-api-key" }).pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "An API key (cis_...) created with POST /me/api-keys or the admin CLI"
      )
    ),
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "An access token (JWT) from the identity provider")
    )
  }
}) {}
