import type { HmrcCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { HmrcCredentialsRepo } from "@cisbook/core/credentials/HmrcCredentialsRepo"
import type { TenantId } from "@cisbook/core/Ids"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

/** Each tenant's credentials, kept as they are (a memory store has no rest to encrypt at). */
export const HmrcCredentialsRepoMemory = Layer.effect(
  HmrcCredentialsRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const state = yield* journal.ref<ReadonlyMap<TenantId, HmrcCredentials>>(new Map())
    const find = (tenantId: TenantId) => Effect.map(Ref.get(state), (all) => Option.fromNullable(all.get(tenantId)))
    return HmrcCredentialsRepo.of({
      find,
      findForUpdate: find,
      set: (tenantId, credentials, at) =>
        Ref.update(state, (all) => new Map(all).set(tenantId, { credentials, status: "Unchecked", updatedAt: at })),
      remove: (tenantId) =>
        Ref.modify(state, (all) => {
          const rest = new Map(all)
          return [rest.delete(tenantId), rest] as const
        }),
      recordStatus: (tenantId, setAt, status) =>
        Ref.modify(state, (all) => {
          const stored = all.get(tenantId)
          if (stored === undefined || stored.updatedAt.getTime() !== setAt.getTime()) return [false, all] as const
          return [true, new Map(all).set(tenantId, { ...stored, status })] as const
        }),
      reseal: () => Effect.succeed(0)
    })
  })
)
