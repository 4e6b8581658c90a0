import { IdempotencyKeys, type KeyClaim, type StoredAnswer } from "@cisbook/core/idempotency/IdempotencyKeys"
import { Effect, Layer, Ref } from "effect"

interface KeyRow {
  readonly fingerprint: string
  readonly claimId: string
  readonly createdAt: Date
  readonly lockedUntil: Date | null
  readonly answer: StoredAnswer | null
}

const id = (scope: string, key: string) => JSON.stringify([scope, key])

export const IdempotencyKeysMemory = Layer.effect(
  IdempotencyKeys,
  Effect.gen(function* () {
    const rows = yield* Ref.make<ReadonlyMap<string, KeyRow>>(new Map())
    return IdempotencyKeys.of({
      claim: (request, at) =>
        Ref.modify(rows, (all): [KeyClaim, ReadonlyMap<string, KeyRow>] => {
          const row = all.get(id(request.scope, request.key))
          const free =
            row === undefined ||
            row.createdAt < at.expiredBefore ||
            (row.lockedUntil !== null && row.lockedUntil < at.now)
          if (free) {
            const claimed: KeyRow = {
              fingerprint: request.fingerprint,
              claimId: request.claimId,
              createdAt: at.now,
              lockedUntil: at.leaseUntil,
              answer: null
            }
            return [{ _tag: "Claimed" }, new Map(all).set(id(request.scope, request.key), claimed)]
          }
          if (row.fingerprint !== request.fingerprint) return [{ _tag: "UsedForAnotherRequest" }, all]
          return [row.answer === null ? { _tag: "InProgress" } : { _tag: "Answered", answer: row.answer }, all]
        }),
      complete: (request, answer) =>
        Ref.update(rows, (all) => {
          const row = all.get(id(request.scope, request.key))
          if (row?.claimId !== request.claimId) return all
          return new Map(all).set(id(request.scope, request.key), { ...row, lockedUntil: null, answer })
        }),
      release: (request) =>
        Ref.update(rows, (all) => {
          const row = all.get(id(request.scope, request.key))
          if (row?.claimId !== request.claimId || row.answer !== null) return all
          const rest = new Map(all)
          rest.delete(id(request.scope, request.key))
          return rest
        }),
      sweep: (expiredBefore) =>
        Ref.modify(rows, (all) => {
          const kept = new Map([...all].filter(([, row]) => row.createdAt >= expiredBefore))
          return [all.size - kept.size, kept]
        })
    })
  })
)
