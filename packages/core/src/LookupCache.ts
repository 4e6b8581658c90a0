import { Cache, Context, Duration, Effect, Option } from "effect"

/**
 * How long what a credential or membership lookup found is reused before it is read again. A
 * revocation made on this server takes effect at once; one made on another server process
 * within this time. Zero reads on every request.
 */
export class LookupCacheTtl extends Context.Reference<LookupCacheTtl>()("core/LookupCacheTtl", {
  defaultValue: (): Duration.Duration => Duration.seconds(10)
}) {}

const CAPACITY = 10_000

export interface LookupCache<Key, A> {
  readonly get: (key: Key) => Effect.Effect<Option.Option<A>>
  readonly set: (key: Key, found: A) => Effect.Effect<void>
  readonly invalidateAll: Effect.Effect<void>
}

/**
 * A cache over `lookup` that keeps what was found (and passes `keep`) for `LookupCacheTtl`, and
 * never keeps a refusal, so that a new key or membership works at once. Keys compare with
 * `Equal` (use strings or `Data` values).
 */
export const cacheFound = <Key, A>(
  lookup: (key: Key) => Effect.Effect<Option.Option<A>>,
  keep: (found: A) => boolean = () => true
): Effect.Effect<LookupCache<Key, A>> =>
  Effect.gen(function* () {
    const ttl = yield* LookupCacheTtl
    if (Duration.isZero(ttl)) return { get: lookup, set: () => Effect.void, invalidateAll: Effect.void }
    const cache = yield* Cache.make({ capacity: CAPACITY, timeToLive: ttl, lookup })
    return {
      get: (key) =>
        Effect.tap(cache.get(key), (found) =>
          Option.isSome(found) && keep(found.value) ? Effect.void : cache.invalidate(key)
        ),
      set: (key, found) => cache.set(key, Option.some(found)),
      invalidateAll: cache.invalidateAll
    }
  })
