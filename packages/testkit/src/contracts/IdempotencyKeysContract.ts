import { claimWindow, CLAIM_LEASE_MS, KEY_RETENTION_MS } from "@cisbook/core/idempotency/RetryWindow"
import { IdempotencyKeys, type KeyedRequest } from "@cisbook/core/idempotency/IdempotencyKeys"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { at, type ContractIt, fresh } from "./Fixtures.js"

const answer = { status: 201, headers: { "content-type": "application/json" }, body: new TextEncoder().encode("{}") }

/** A request under a new key, from a new caller. */
const keyed = Effect.map(fresh, ({ id, token }) => ({
  scope: `user-${token}`,
  key: `key-${token}`,
  fingerprint: "POST /tenants {a}",
  claimId: id
}))

/** Another attempt at the same request (a retry): its own claim id. */
const attempt = (request: KeyedRequest) => Effect.map(fresh, ({ id }) => ({ ...request, claimId: id }))

export const idempotencyKeysContract = (it: ContractIt) => {
  it.effect("claims a new key once; a retry finds the claim in progress, then its answer", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys
      const first = yield* keyed
      const retry = yield* attempt(first)
      expect(yield* keys.claim(first, claimWindow(at(0)))).toEqual({ _tag: "Claimed" })
      expect(yield* keys.claim(retry, claimWindow(at(1)))).toEqual({ _tag: "InProgress" })
      yield* keys.complete(first, answer)
      expect(yield* keys.claim(retry, claimWindow(at(2)))).toEqual({ _tag: "Answered", answer })
    })
  )

  it.effect("refuses the key for another request, and keeps callers apart", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys
      const first = yield* keyed
      yield* keys.claim(first, claimWindow(at(0)))
      yield* keys.complete(first, answer)
      const other = yield* attempt({ ...first, fingerprint: "POST /tenants {b}" })
      expect(yield* keys.claim(other, claimWindow(at(1)))).toEqual({ _tag: "UsedForAnotherRequest" })
      const someoneElse = yield* attempt({ ...first, scope: `${first.scope}-other` })
      expect(yield* keys.claim(someoneElse, claimWindow(at(1)))).toEqual({ _tag: "Claimed" })
    })
  )

  it.effect("frees a released claim, and a claim whose lease ran out, but not an answered key", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys
      const first = yield* keyed
      yield* keys.claim(first, claimWindow(at(0)))
      yield* keys.release(first)
      const second = yield* attempt(first)
      expect(yield* keys.claim(second, claimWindow(at(1)))).toEqual({ _tag: "Claimed" })
      const afterLease = at(1 + CLAIM_LEASE_MS / 60_000 + 1)
      const third = yield* attempt(first)
      expect(yield* keys.claim(third, claimWindow(afterLease))).toEqual({ _tag: "Claimed" })
      // The second claim lost the key: its late answer and release change nothing.
      yield* keys.complete(second, { ...answer, status: 200 })
      yield* keys.release(second)
      expect(yield* keys.claim(yield* attempt(first), claimWindow(afterLease))).toEqual({ _tag: "InProgress" })
      yield* keys.complete(third, answer)
      yield* keys.release(third)
      expect(yield* keys.claim(yield* attempt(first), claimWindow(afterLease))).toEqual({ _tag: "Answered", answer })
    })
  )

  it.effect("forgets a key 24 hours after its first use, and sweeps expired keys", () =>
    Effect.gen(function* () {
      const keys = yield* IdempotencyKeys
      const first = yield* keyed
      const later = yield* keyed
      yield* keys.claim(first, claimWindow(at(0)))
      yield* keys.complete(first, answer)
      yield* keys.claim(later, claimWindow(at(60)))
      const justBefore = at(KEY_RETENTION_MS / 60_000 - 1)
      expect(yield* keys.claim(yield* attempt(first), claimWindow(justBefore))).toEqual({ _tag: "Answered", answer })
      const dayLater = at(KEY_RETENTION_MS / 60_000 + 1)
      expect(yield* keys.claim(yield* attempt(first), claimWindow(dayLater))).toEqual({ _tag: "Claimed" })
      // Swept as a day old at 24 h 61 min, the later key (still unanswered, within its lease at
      // 61 min) is free again; the first, claimed again a day later, is kept.
      expect(yield* keys.sweep(claimWindow(at(KEY_RETENTION_MS / 60_000 + 61)).expiredBefore)).toBeGreaterThanOrEqual(1)
      expect(yield* keys.claim(yield* attempt(later), claimWindow(at(61)))).toEqual({ _tag: "Claimed" })
      expect(yield* keys.claim(yield* attempt(first), claimWindow(dayLater))).toEqual({ _tag: "InProgress" })
    })
  )
}
