import { Duration, Effect, Option } from "effect"
import { API_KEY_RANDOM_BYTES, ApiKey, displayPrefix, formatApiKey, isApiKeyShape } from "./ApiKey.js"
import { NotFound, Unauthorized } from "../Errors.js"
import { type ApiKeyId, isUuid } from "../Ids.js"
import { ApiKeyRepo } from "./ApiKeyRepo.js"
import { cacheFound } from "../LookupCache.js"
import { Clock } from "../system/Clock.js"
import { Crypto } from "../system/Crypto.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { CurrentUser, type Principal } from "../users/CurrentUser.js"

/** Last-used times are kept to the minute, so that a busy key does not write on every request. */
const TOUCH_INTERVAL = Duration.toMillis(Duration.minutes(1))

export const invalidApiKey = new Unauthorized({
  detail: "The API key is not valid. Check the x-api-key header, or create a new key."
})

export class ApiKeys extends Effect.Service<ApiKeys>()("core/ApiKeys", {
  effect: Effect.gen(function* () {
    const repo = yield* ApiKeyRepo
    const crypto = yield* Crypto
    const clock = yield* Clock
    const ids = yield* IdGenerator
    const byHash = yield* cacheFound(repo.findByHash)

    /** Creates a key for the current user; the plain key is returned here and never again. */
    const issue = (
      name: string
    ): Effect.Effect<{ readonly apiKey: ApiKey; readonly key: string }, never, CurrentUser> =>
      Effect.gen(function* () {
        const { user } = yield* CurrentUser
        const key = formatApiKey(yield* crypto.randomBytes(API_KEY_RANDOM_BYTES))
        const apiKey = new ApiKey({
          id: (yield* ids.uuid) as ApiKeyId,
          userId: user.id,
          name,
          prefix: displayPrefix(key),
          createdAt: yield* clock.now,
          lastUsedAt: null
        })
        yield* repo.insert(apiKey, yield* crypto.sha256Hex(key))
        return { apiKey, key }
      }).pipe(Effect.withSpan("ApiKeys.issue"))

    /** The current user's keys, newest first. */
    const list = (): Effect.Effect<ReadonlyArray<ApiKey>, never, CurrentUser> =>
      CurrentUser.pipe(Effect.flatMap(({ user }) => repo.listByUser(user.id)))

    /** Revokes the current user's key `id` (as it came in a path). */
    const revoke = (id: string): Effect.Effect<void, NotFound, CurrentUser> =>
      Effect.all([CurrentUser, clock.now]).pipe(
        Effect.flatMap(([{ user }, now]) =>
          isUuid(id) ? repo.revoke(user.id, id as ApiKeyId, now) : Effect.succeed(false)
        ),
        Effect.flatMap((revoked) =>
          revoked
            ? byHash.invalidateAll
            : Effect.fail(new NotFound({ detail: `You have no API key with the id ${id}.` }))
        )
      )

    /** The principal a key stands for: its user, and the key. */
    const authenticate = (key: string): Effect.Effect<Principal, Unauthorized> =>
      Effect.gen(function* () {
        if (!isApiKeyShape(key)) return yield* invalidApiKey
        const hash = yield* crypto.sha256Hex(key)
        const found = yield* byHash.get(hash)
        if (Option.isNone(found)) return yield* invalidApiKey
        const { key: apiKey, user } = found.value
        const now = yield* clock.now
        const last = apiKey.lastUsedAt
        if (last === null || now.getTime() - last.getTime() >= TOUCH_INTERVAL) {
          yield* repo.touch(apiKey.id, now)
          yield* byHash.set(hash, { key: new ApiKey({ ...apiKey, lastUsedAt: now }), user })
        }
        return { user, apiKeyId: apiKey.id }
      }) // No span: this runs on every request, and a span costs ~20 µs of CPU even with tracing off.

    /** Forgets every key found before, so that a key revoked elsewhere is refused from now on. */
    const forgetFound = byHash.invalidateAll

    return { issue, list, revoke, authenticate, forgetFound } as const
  })
}) {}
