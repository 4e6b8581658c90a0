import { ApiKey } from "@cisbook/core/apikeys/ApiKey"
import { ApiKeyRepo } from "@cisbook/core/apikeys/ApiKeyRepo"
import { Effect, Layer, Option, Order, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"
import { UserStore } from "./UserRepoMemory.js"

interface Row {
  readonly key: ApiKey
  readonly hash: string
  readonly revokedAt: Date | null
}

export const ApiKeyRepoMemory = Layer.effect(
  ApiKeyRepo,
  Effect.gen(function* () {
    const users = yield* UserStore
    const journal = yield* MemoryJournal
    const rows = yield* journal.ref<ReadonlyArray<Row>>([])
    const live = (r: Row) => r.revokedAt === null
    return ApiKeyRepo.of({
      insert: (key, hash) => Ref.update(rows, (rs) => [...rs, { key, hash, revokedAt: null }]),
      listByUser: (userId) =>
        Ref.get(rows).pipe(
          Effect.map((rs) =>
            rs
              .filter((r) => live(r) && r.key.userId === userId)
              .map((r) => r.key)
              .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || Order.string(b.id, a.id))
          )
        ),
      revoke: (userId, id, at) =>
        Ref.modify(rows, (rs) => {
          const hit = rs.some((r) => live(r) && r.key.id === id && r.key.userId === userId)
          return [hit, hit ? rs.map((r) => (r.key.id === id ? { ...r, revokedAt: at } : r)) : rs] as const
        }),
      findByHash: (hash) =>
        Effect.all([Ref.get(rows), Ref.get(users)]).pipe(
          Effect.map(([rs, us]) => {
            const row = rs.find((r) => live(r) && r.hash === hash)
            const user = row && us.get(row.key.userId)
            return row && user ? Option.some({ key: row.key, user }) : Option.none()
          })
        ),
      touch: (id, at) =>
        Ref.update(rows, (rs) =>
          rs.map((r) => (r.key.id === id ? { ...r, key: new ApiKey({ ...r.key, lastUsedAt: at }) } : r))
        )
    })
  })
)
