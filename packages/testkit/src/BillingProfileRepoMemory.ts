import type { BillingAddress } from "@cisbook/core/billing/mandates/BillingAddress"
import type { UserId } from "@cisbook/core/Ids"
import { BillingProfileRepo } from "@cisbook/core/billing/mandates/BillingProfileRepo"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

export const BillingProfileRepoMemory = Layer.effect(
  BillingProfileRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const state = yield* journal.ref<ReadonlyMap<UserId, BillingAddress>>(new Map())
    return BillingProfileRepo.of({
      get: (userId) => Effect.map(Ref.get(state), (all) => Option.fromNullable(all.get(userId))),
      getOf: (userIds) =>
        Effect.map(Ref.get(state), (all) => new Map([...all].filter(([userId]) => userIds.includes(userId)))),
      put: (userId, address) => Ref.update(state, (all) => new Map(all).set(userId, address))
    })
  })
)
