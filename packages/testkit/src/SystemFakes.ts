import { Clock } from "@cisbook/core/system/Clock"
import { Crypto } from "@cisbook/core/system/Crypto"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { Transactor } from "@cisbook/core/system/Transactor"
import { Clock as EffectClock, Effect, Layer, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

/** A clock that stands still until told to move. */
export class ManualClock extends Effect.Service<ManualClock>()("testkit/ManualClock", {
  effect: Effect.gen(function* () {
    const now = yield* Ref.make(new Date("2026-11-21T09:00:00.000Z"))
    return {
      now: Ref.get(now),
      set: (at: Date) => Ref.set(now, at),
      advance: (millis: number) => Ref.update(now, (at) => new Date(at.getTime() + millis))
    } as const
  })
}) {}

export const ClockManual = Layer.effect(
  Clock,
  Effect.map(ManualClock, (manual) => Clock.of({ now: manual.now }))
).pipe(Layer.provideMerge(ManualClock.Default))

/** The Clock port over Effect's own clock, so that a test moves it with TestClock. */
export const ClockOfEffect = Layer.succeed(
  Clock,
  Clock.of({ now: Effect.map(EffectClock.currentTimeMillis, (millis) => new Date(millis)) })
)

/** Sequential, well-formed UUIDs: 00000000-0000-4000-8000-000000000001, ... */
export const IdGeneratorSequential = Layer.effect(
  IdGenerator,
  Effect.map(Ref.make(0), (counter) =>
    IdGenerator.of({
      uuid: Ref.updateAndGet(counter, (n) => n + 1).pipe(
        Effect.map((n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`)
      )
    })
  )
)

/** Deterministic bytes and a stand-in digest: fine for tests, never for production. */
export const CryptoFake = Layer.effect(
  Crypto,
  Effect.map(Ref.make(1), (seed) =>
    Crypto.of({
      randomBytes: (length) =>
        Ref.getAndUpdate(seed, (n) => n + 1).pipe(
          Effect.map((n) => Uint8Array.from({ length }, (_, i) => (n * 31 + i * 17) % 256))
        ),
      sha256Hex: (text) =>
        Effect.sync(() => {
          let h = 0n
          for (const c of text) h = (h * 131n + BigInt(c.codePointAt(0) ?? 0)) % (1n << 128n)
          return h.toString(16).padStart(64, "0")
        })
    })
  )
)

/** Puts every fake's state back when the transaction fails. */
export const TransactorMemory = Layer.effect(
  Transactor,
  Effect.map(MemoryJournal, (journal) => Transactor.of({ transaction: journal.transaction }))
)
