import { CurrentTenant } from "@cisbook/core/tenants/CurrentTenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import type { User } from "@cisbook/core/users/User"
import { Effect } from "effect"

/**
 * Runs a use case as `user` acting for the tenant with `code`, found as the HTTP API finds it:
 * NotFound for no such tenant, NotAMember for a caller who is not one of its members.
 */
export const asMember =
  (user: User, code: string) =>
  <A, E, R>(useCase: Effect.Effect<A, E, R>) =>
    Effect.provideServiceEffect(
      useCase,
      CurrentTenant,
      Effect.flatMap(Tenants, (tenants) => tenants.access(user, code))
    )

/** Runs a use case for the tenant with `code` as support staff, as the admin CLI does. */
export const asSupport =
  (code: string) =>
  <A, E, R>(useCase: Effect.Effect<A, E, R>) =>
    Effect.provideServiceEffect(
      useCase,
      CurrentTenant,
      Effect.flatMap(Tenants, (tenants) => tenants.supportAccess(code))
    )
