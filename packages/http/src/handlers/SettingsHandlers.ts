import type { CisDetails } from "@cisbook/core/cis/CisDetails"
import type { CisScheme } from "@cisbook/core/cis/CisScheme"
import type { HmrcCredentialsView } from "@cisbook/core/credentials/HmrcCredentials"
import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { TenantSettings } from "@cisbook/core/tenants/TenantSettings"
import { CisbookApi } from "@cisbook/sdk/Api"
import { CisSchemeDto, HmrcCredentialsDto, TenantCisDetailsDto } from "@cisbook/sdk/SettingsDtos"
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"

const unset = new TenantCisDetailsDto({
  type: null,
  title: null,
  firstName: null,
  secondName: null,
  lastName: null,
  tradingName: null,
  utr: null,
  niNumber: null,
  companyNumber: null,
  partnerUtr: null
})

const cisDetailsDto = (details: CisDetails) => new TenantCisDetailsDto({ ...details })

const noScheme = new CisSchemeDto({ employerReference: null, accountsOfficeReference: null })

const cisSchemeDto = (scheme: CisScheme) => new CisSchemeDto({ ...scheme })

const credentialsDto = (view: HmrcCredentialsView) => new HmrcCredentialsDto({ ...view })

export const SettingsHandlers = HttpApiBuilder.group(CisbookApi, "settings", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* TenantSettings
    const credentials = yield* HmrcCredentialsSettings
    return handlers
      .handle("getCisDetails", () =>
        settings.cisDetails().pipe(Effect.map(Option.match({ onNone: () => unset, onSome: cisDetailsDto })))
      )
      .handle("updateCisDetails", ({ payload }) => settings.setCisDetails(payload).pipe(Effect.map(cisDetailsDto)))
      .handle("getCisScheme", () =>
        settings.cisScheme().pipe(Effect.map(Option.match({ onNone: () => noScheme, onSome: cisSchemeDto })))
      )
      .handle("updateCisScheme", ({ payload }) => settings.setCisScheme(payload).pipe(Effect.map(cisSchemeDto)))
      .handle("getHmrcCredentials", () =>
        credentials.get().pipe(Effect.map(Option.match({ onNone: () => null, onSome: credentialsDto })))
      )
      .handle("updateHmrcCredentials", ({ payload }) => credentials.set(payload).pipe(Effect.map(credentialsDto)))
      .handle("deleteHmrcCredentials", () => credentials.remove())
  })
)
