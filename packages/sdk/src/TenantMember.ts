import { CurrentTenant } from "@cisbook/core/tenants/CurrentTenant"
import type { TenantAccess } from "@cisbook/core/tenants/Tenant"
import type { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { HttpApiMiddleware, type HttpRouter } from "@effect/platform"
import { type Effect, Schema } from "effect"
import { ForbiddenProblem, NotFoundProblem } from "./Problem.js"

/**
 * What a tenant middleware does for a request: the path's tenant for the authenticated user, so
 * it needs the CurrentUser that `Authenticate` provides. The platform types every middleware as
 * needing the request alone (effect 3's HttpApiMiddleware has no `requires`), so the need is
 * written here, and `Access` declares the two middlewares in the order that meets it.
 */
export type TenantFromPath<E> = Effect.Effect<TenantAccess, E, HttpRouter.HttpRouter.Provided | CurrentUser>

/** An `HttpApiMiddleware.Tag` providing CurrentTenant, whose work is a {@link TenantFromPath}. */
const tenantMiddleware =
  <Self>() =>
  <const Name extends string, const Failure extends Schema.Schema.All>(name: Name, failure: Failure) =>
    HttpApiMiddleware.Tag<Self>()(name, {
      provides: CurrentTenant,
      failure
    }) as unknown as HttpApiMiddleware.TagClass.Base<
      Self,
      Name,
      { readonly provides: typeof CurrentTenant; readonly failure: Failure },
      TenantFromPath<Schema.Schema.Type<Failure>>
    >

/**
 * The tenant named by the path's `{tenant}`, for one of its members: 404 when there is no such
 * tenant, 403 when the caller is not a member. Declared with `Access.forTenantMembers`.
 */
export class TenantMember extends tenantMiddleware<TenantMember>()(
  "sdk/TenantMember",
  Schema.Union(ForbiddenProblem, NotFoundProblem)
) {}

/**
 * {@link TenantMember} for operations that answer a caller who is not a member 404, as for a
 * tenant that does not exist. Declared with `Access.forTenantMembersOrNotFound`.
 */
export class TenantMemberOrNotFound extends tenantMiddleware<TenantMemberOrNotFound>()(
  "sdk/TenantMemberOrNotFound",
  NotFoundProblem
) {}
