import { CurrentTenant } from "./CurrentTenant.js"
import { Tenants } from "./Tenants.js"
import { asUser } from "../users/ActingAs.js"
import type { User } from "../users/User.js"
import { Effect } from "effect"

/**
 * Runs a use case as `user` acting for the tenant with `code`, found as the HTTP API finds it:
 * NotFound for no such tenant, NotAMember for a caller who is not one of its members.
 */
export const asMember =
  (user: User, code: string) =>
  <A, E, R>(useCase: Effect.Effect<A, E, R>) =>
    useCase.pipe(
      Effect.provideServiceEffect(
        CurrentTenant,
        Effect.flatMap(Tenants, (tenants) => tenants.access(code))
      ),
      asUser(user)
    )

/** Runs a use case for the tenant with `code` as support staff (the admin CLI), who act for any tenant with an Owner's rights. */
export const asSupport =
  (code: string) =>
  <A, E, R>(useCase: Effect.Effect<A, E, R>) =>
    Effect.provideServiceEffect(
      useCase,
      CurrentTenant,
      Effect.flatMap(Tenants, (tenants) => tenants.supportAccess(code))
    )
