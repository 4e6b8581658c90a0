import type { CisDetails } from "@cisbook/core/cis/CisDetails"
import type { CisScheme } from "@cisbook/core/cis/CisScheme"
import type { TenantId } from "@cisbook/core/Ids"
import { TenantSettingsRepo } from "@cisbook/core/tenants/TenantSettingsRepo"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

/** One tenant's settings row; a setting never written is null, as in the SQL column. */
interface Settings {
  readonly cisDetails: CisDetails | null
  readonly cisScheme: CisScheme | null
  readonly registeredFrom: string | null
}

const unset: Settings = { cisDetails: null, cisScheme: null, registeredFrom: null }

export const TenantSettingsRepoMemory = Layer.effect(
  TenantSettingsRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const state = yield* journal.ref<ReadonlyMap<TenantId, Settings>>(new Map())
    const update = (tenantId: TenantId, f: (settings: Settings) => Settings) =>
      Ref.update(state, (all) => new Map(all).set(tenantId, f(all.get(tenantId) ?? unset)))
    return TenantSettingsRepo.of({
      getCisDetails: (tenantId) =>
        Effect.map(Ref.get(state), (all) => Option.fromNullable(all.get(tenantId)?.cisDetails)),
      setCisDetails: (tenantId, cisDetails) => update(tenantId, (settings) => ({ ...settings, cisDetails })),
      getCisScheme: (tenantId) =>
        Effect.map(Ref.get(state), (all) => Option.fromNullable(all.get(tenantId)?.cisScheme)),
      setCisScheme: (tenantId, cisScheme, registeredFrom) =>
        update(tenantId, (settings) => ({ ...settings, cisScheme, registeredFrom })),
      getRegisteredFrom: (tenantId) =>
        Effect.map(Ref.get(state), (all) => Option.fromNullable(all.get(tenantId)?.registeredFrom))
    })
  })
)
