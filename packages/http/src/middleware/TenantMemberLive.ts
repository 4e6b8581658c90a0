import { Forbidden } from "@cisbook/core/Errors"
import { Tenants, tenantNotFound } from "@cisbook/core/tenants/Tenants"
import { TenantMember, TenantMemberOrNotFound } from "@cisbook/sdk/TenantMember"
import { HttpRouter } from "@effect/platform"
import { Effect, Layer } from "effect"

/** The tenant named by the path, for the authenticated user (Authenticate runs first: see sdk/Access). */
const accessFromPath = Effect.map(Tenants, (tenants) =>
  Effect.flatMap(HttpRouter.RouteContext, ({ params }) => tenants.access(params["tenant"] ?? ""))
)

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
