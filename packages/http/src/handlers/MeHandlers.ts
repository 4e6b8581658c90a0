import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import { apiKeyDto, createdApiKeyDto } from "../dto/ApiKeyDto.js"
import { tenantDto } from "../dto/TenantDto.js"
import { meDto } from "../dto/UserDto.js"

export const MeHandlers = HttpApiBuilder.group(CisbookApi, "me", (handlers) =>
  Effect.gen(function* () {
    const tenants = yield* Tenants
    const keys = yield* ApiKeys
    return handlers
      .handle("getMe", () => Effect.map(CurrentUser, meDto))
      .handle("listMyTenants", () => tenants.listMine().pipe(Effect.map(Array.map(tenantDto))))
      .handle("createApiKey", ({ payload }) => keys.issue(payload.name).pipe(Effect.map(createdApiKeyDto)))
      .handle("listApiKeys", () => keys.list().pipe(Effect.map(Array.map(apiKeyDto))))
      .handle("revokeApiKey", ({ path }) => keys.revoke(path.apiKey))
  })
)
