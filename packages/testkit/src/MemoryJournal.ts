import { Effect, Ref } from "effect"

/**
 * The fakes' state cells, so that a transaction can put every one back when it fails. Like a
 * savepoint, but not isolated: a concurrent fiber's writes during a failed transaction are
 * undone with it.
 */
export class MemoryJournal extends Effect.Service<MemoryJournal>()("testkit/MemoryJournal", {
  sync: () => {
    const savers: Array<Effect.Effect<Effect.Effect<void>>> = []
    /** A state cell that transactions restore. */
    const ref = <A>(initial: A) =>
      Effect.tap(Ref.make(initial), (cell) =>
        Effect.sync(() => savers.push(Effect.map(Ref.get(cell), (saved) => Ref.set(cell, saved))))
      )
    const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(Effect.all(savers), (restores) =>
        Effect.onError(effect, () => Effect.all(restores, { discard: true }))
      )
    return { ref, transaction } as const
  }
}) {}
