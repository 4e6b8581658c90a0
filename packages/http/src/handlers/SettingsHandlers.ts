import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { TenantSettings } from "@cisbook/core/tenants/TenantSettings"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import {
  cisDetailsDto,
  cisDetailsOrUnsetDto,
  cisSchemeDto,
  cisSchemeOrNoneDto,
  hmrcCredentialsDto,
  hmrcCredentialsOrNullDto
} from "../dto/SettingsDto.js"

export const SettingsHandlers = HttpApiBuilder.group(CisbookApi, "settings", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* TenantSettings
    const credentials = yield* HmrcCredentialsSettings
    return handlers
      .handle("getCisDetails", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => settings.cisDetails(user, path.tenant)),
          Effect.map(cisDetailsOrUnsetDto)
        )
      )
      .handle("updateCisDetails", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => settings.setCisDetails(user, path.tenant, payload)),
          Effect.map(cisDetailsDto)
        )
      )
      .handle("getCisScheme", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => settings.cisScheme(user, path.tenant)),
          Effect.map(cisSchemeOrNoneDto)
        )
      )
      .handle("updateCisScheme", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => settings.setCisScheme(user, path.tenant, payload)),
          Effect.map(cisSchemeDto)
        )
      )
      .handle("getHmrcCredentials", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => credentials.get(user, path.tenant)),
          Effect.map(hmrcCredentialsOrNullDto)
        )
      )
      .handle("updateHmrcCredentials", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => credentials.set(user, path.tenant, payload)),
          Effect.map(hmrcCredentialsDto)
        )
      )
      .handle("deleteHmrcCredentials", ({ path }) =>
        CurrentUser.pipe(Effect.flatMap((user) => credentials.remove(user, path.tenant)))
      )
  })
)
