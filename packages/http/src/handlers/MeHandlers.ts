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
      .handle("listMyTenants", () =>
        CurrentUser.pipe(Effect.flatMap(tenants.listFor), Effect.map(Array.map(tenantDto)))
      )
      .handle("createApiKey", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => keys.issue(user, payload.name)),
          Effect.map(createdApiKeyDto)
        )
      )
      .handle("listApiKeys", () => CurrentUser.pipe(Effect.flatMap(keys.list), Effect.map(Array.map(apiKeyDto))))
      .handle("revokeApiKey", ({ path }) => CurrentUser.pipe(Effect.flatMap((user) => keys.revoke(user, path.apiKey))))
  })
)
