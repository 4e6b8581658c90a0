import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
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
      .handle("getCisDetails", () => settings.cisDetails().pipe(Effect.map(cisDetailsOrUnsetDto)))
      .handle("updateCisDetails", ({ payload }) => settings.setCisDetails(payload).pipe(Effect.map(cisDetailsDto)))
      .handle("getCisScheme", () => settings.cisScheme().pipe(Effect.map(cisSchemeOrNoneDto)))
      .handle("updateCisScheme", ({ payload }) => settings.setCisScheme(payload).pipe(Effect.map(cisSchemeDto)))
      .handle("getHmrcCredentials", () => credentials.get().pipe(Effect.map(hmrcCredentialsOrNullDto)))
      .handle("updateHmrcCredentials", ({ payload }) => credentials.set(payload).pipe(Effect.map(hmrcCredentialsDto)))
      .handle("deleteHmrcCredentials", () => credentials.remove())
  })
)
