import { claimWindow, KEY_RETENTION_MS } from "@cisbook/core/idempotency/RetryWindow"
import { IdempotencyKeys } from "@cisbook/core/idempotency/IdempotencyKeys"
import { IdempotencyKeysMemory } from "@cisbook/testkit/IdempotencyKeysMemory"
import { ClockManual, ManualClock } from "@cisbook/testkit/SystemFakes"
import { expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { IdempotencyKeySweeperLive, SWEEP_INTERVAL } from "../src/workers/IdempotencyKeySweeper.js"

const request = { scope: "user-1", key: "k", fingerprint: "f", claimId: "00000000-0000-4000-8000-000000000001" }

it.scoped("deletes keys older than a day, every hour, while the server runs", () =>
  Effect.gen(function* () {
    const keys = yield* IdempotencyKeys
    const manual = yield* ManualClock
    const start = yield* manual.now
    yield* keys.claim(request, claimWindow(start))
    yield* Layer.buildWithScope(IdempotencyKeySweeperLive, yield* Effect.scope)
    // A day and a little later by the service's clock, the next sweep deletes the key: a claim
    // judged at the start (when it was neither expired nor out of its lease) finds it free.
    yield* manual.advance(KEY_RETENTION_MS + 60_000)
    const retry = { ...request, claimId: "00000000-0000-4000-8000-000000000002" }
    yield* TestClock.adjust(SWEEP_INTERVAL)
    expect(yield* keys.claim(retry, claimWindow(start))).toEqual({ _tag: "Claimed" })
  }).pipe(Effect.provide(Layer.merge(IdempotencyKeysMemory, ClockManual)))
)

it.scoped("keeps keys younger than a day", () =>
  Effect.gen(function* () {
    const keys = yield* IdempotencyKeys
    const manual = yield* ManualClock
    const start = yield* manual.now
    yield* keys.claim(request, claimWindow(start))
    yield* Layer.buildWithScope(IdempotencyKeySweeperLive, yield* Effect.scope)
    yield* manual.advance(KEY_RETENTION_MS - 60_000)
    yield* TestClock.adjust(SWEEP_INTERVAL)
    expect(yield* keys.claim({ ...request, claimId: "x" }, claimWindow(start))).toEqual({ _tag: "InProgress" })
  }).pipe(Effect.provide(Layer.merge(IdempotencyKeysMemory, ClockManual)))
)
