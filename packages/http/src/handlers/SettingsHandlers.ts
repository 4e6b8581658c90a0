import type { CisDetails } from "@cisbook/core/cis/CisDetails"
import { CurrentUser } from "@cisbook/core/CurrentUser"
import { TenantSettings } from "@cisbook/core/usecases/TenantSettings"
import { CisbookApi } from "@cisbook/sdk/Api"
import { TenantCisDetailsDto } from "@cisbook/sdk/SettingsDtos"
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
  companyNumber: null
})

const cisDetailsDto = (details: CisDetails) => new TenantCisDetailsDto({ ...details })

export const SettingsHandlers = HttpApiBuilder.group(CisbookApi, "settings", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* TenantSettings
    return handlers
      .handle("getCisDetails", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => settings.cisDetails(user, path.tenant)),
          Effect.map(Option.match({ onNone: () => unset, onSome: cisDetailsDto }))
        )
      )
      .handle("updateCisDetails", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => settings.setCisDetails(user, path.tenant, payload)),
          Effect.map(cisDetailsDto)
        )
      )
  })
)
