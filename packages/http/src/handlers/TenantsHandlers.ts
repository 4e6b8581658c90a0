import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { CurrentTenant } from "@cisbook/core/tenants/CurrentTenant"
import { Email } from "@cisbook/core/Email"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import { memberDto, tenantDto } from "../dto/TenantDto.js"

export const TenantsHandlers = HttpApiBuilder.group(CisbookApi, "tenants", (handlers) =>
  Effect.gen(function* () {
    const tenants = yield* Tenants
    return handlers
      .handle("createTenant", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) =>
            tenants.create(user, {
              code: TenantCode.make(payload.code),
              name: payload.name,
              email: payload.email === undefined ? null : Email.make(payload.email)
            })
          ),
          Effect.map(tenantDto)
        )
      )
      .handle("getTenant", () => CurrentTenant.pipe(Effect.map(tenantDto)))
      .handle("listMembers", () => tenants.members().pipe(Effect.map(Array.map(memberDto))))
      .handle("addMember", ({ payload }) =>
        tenants.addMember({ email: Email.make(payload.email), role: payload.role }).pipe(Effect.map(memberDto))
      )
  })
)
