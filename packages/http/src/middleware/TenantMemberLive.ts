import { Forbidden } from "@cisbook/core/Errors"
import { Tenants, tenantNotFound } from "@cisbook/core/tenants/Tenants"
import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { TenantMember, TenantMemberOrNotFound } from "@cisbook/sdk/TenantMember"
import { HttpRouter } from "@effect/platform"
import { Effect, Layer, Option } from "effect"

/** The tenant named by the path, for the authenticated caller (Authenticate ran first and provided them). */
const accessFromPath = Effect.gen(function* () {
  const tenants = yield* Tenants
  return Effect.gen(function* () {
    const user = yield* Effect.serviceOption(CurrentUser)
    if (Option.isNone(user)) return yield* Effect.dieMessage("TenantMember runs only after Authenticate")
    const { params } = yield* HttpRouter.RouteContext
    return yield* tenants.access(user.value, params["tenant"] ?? "")
  })
})

export const TenantMemberLive = Layer.effect(
  TenantMember,
  Effect.map(accessFromPath, (access) =>
    access.pipe(Effect.catchTag("NotAMember", ({ detail }) => Effect.fail(new Forbidden({ detail }))))
  )
)

export const TenantMemberOrNotFoundLive = Layer.effect(
  TenantMemberOrNotFound,
  Effect.map(accessFromPath, (access) =>
    access.pipe(Effect.catchTag("NotAMember", ({ tenantCode }) => Effect.fail(tenantNotFound(tenantCode))))
  )
)
