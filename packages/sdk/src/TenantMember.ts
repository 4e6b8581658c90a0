import { CurrentTenant } from "@cisbook/core/tenants/CurrentTenant"
import { HttpApiMiddleware } from "@effect/platform"
import { Schema } from "effect"
import { ForbiddenProblem, NotFoundProblem } from "./Problem.js"

/**
 * The tenant named by the path's `{tenant}`, for one of its members: 404 when there is no such
 * tenant, 403 when the caller is not a member. It runs after authentication: a group declares
 * it before `Authenticate`, as the platform runs a group's middlewares last declared first.
 */
export class TenantMember extends HttpApiMiddleware.Tag<TenantMember>()("sdk/TenantMember", {
  provides: CurrentTenant,
  failure: Schema.Union(ForbiddenProblem, NotFoundProblem)
}) {}

/** {@link TenantMember} for operations that answer a caller who is not a member 404, as for a tenant that does not exist. */
export class TenantMemberOrNotFound extends HttpApiMiddleware.Tag<TenantMemberOrNotFound>()(
  "sdk/TenantMemberOrNotFound",
  {
    provides: CurrentTenant,
    failure: NotFoundProblem
  }
) {}
