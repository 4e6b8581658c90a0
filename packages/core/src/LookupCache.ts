import { Clock, Context, Duration, Effect, MutableHashMap, Option } from "effect"

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

interface Kept<A> {
  readonly found: A
  /** Clock time (ms) from which it is read again. */
  readonly until: number
}

/**
 * A cache over `lookup` that keeps what was found (and passes `keep`) for `LookupCacheTtl`, and
 * never keeps a refusal, so that a new key or membership works at once, nor a failed lookup (a
 * database busy just now), so that the next request reads again. Keys compare with `Equal` (use
 * strings or `Data` values). A hit is a map read and the clock's time: it runs on every request,
 * where Effect's `Cache` took three times the operations (and kept failures for the whole time).
 * Two lookups of one key that miss at once both read. Beyond `CAPACITY` keys, the one stored
 * longest ago goes first.
 */
export const cacheFound = <Key, A>(
  lookup: (key: Key) => Effect.Effect<Option.Option<A>>,
  keep: (found: A) => boolean = () => true
): Effect.Effect<LookupCache<Key, A>> =>
  Effect.gen(function* () {
    const ttl = yield* LookupCacheTtl
    if (Duration.isZero(ttl)) return { get: lookup, set: () => Effect.void, invalidateAll: Effect.void }
    const ttlMillis = Duration.toMillis(ttl)
    const kept = MutableHashMap.empty<Key, Kept<A>>()
    // Bumped by invalidateAll: a lookup that began before a revocation must not keep what it read.
    let generation = 0

    const store = (key: Key, found: A, now: number) => {
      MutableHashMap.remove(kept, key)
      if (MutableHashMap.size(kept) >= CAPACITY) {
        for (const [oldest] of kept) {
          MutableHashMap.remove(kept, oldest)
          break
        }
      }
      MutableHashMap.set(kept, key, { found, until: now + ttlMillis })
    }

    const read = (key: Key, now: number) => {
      const began = generation
      return Effect.map(lookup(key), (found) => {
        if (began !== generation) return found
        if (Option.isSome(found) && keep(found.value)) store(key, found.value, now)
        else MutableHashMap.remove(kept, key)
        return found
      })
    }

    return {
      get: (key) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const hit = MutableHashMap.get(kept, key)
          return Option.isSome(hit) && now < hit.value.until
            ? Effect.succeed(Option.some(hit.value.found))
            : read(key, now)
        }),
      set: (key, found) => Effect.map(Clock.currentTimeMillis, (now) => store(key, found, now)),
      invalidateAll: Effect.sync(() => {
        generation += 1
        MutableHashMap.clear(kept)
      })
    }
  })
