import { CurrentTenant } from "@cisbook/core/tenants/CurrentTenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import { memberDto, tenantDto } from "../dto/TenantDto.js"

export const TenantsHandlers = HttpApiBuilder.group(CisbookApi, "tenants", (handlers) =>
  Effect.gen(function* () {
    const tenants = yield* Tenants
    return handlers
      .handle("createTenant", ({ payload }) => tenants.create(payload).pipe(Effect.map(tenantDto)))
      .handle("getTenant", () => CurrentTenant.pipe(Effect.map(tenantDto)))
      .handle("listMembers", () => tenants.members().pipe(Effect.map(Array.map(memberDto))))
      .handle("addMember", ({ payload }) => tenants.addMember(payload).pipe(Effect.map(memberDto)))
  })
)
