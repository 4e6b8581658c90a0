import { RevocationNotices } from "@cisbook/core/system/RevocationNotices"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Duration, Effect, Layer, Schedule, Stream } from "effect"

/** Listening again after a lost connection: 1 s, 2 s, 4 s, ... at most 30 s apart; reset once listening. */
const relisten = Schedule.exponential(Duration.seconds(1)).pipe(Schedule.union(Schedule.spaced(Duration.seconds(30))))

/**
 * Forgets the API keys this process has found whenever a key is revoked on any process, so a
 * revoked key stops working everywhere at once. When listening starts (again), what was found
 * is forgotten too, as a revocation may have been missed meanwhile. While the notices cannot be
 * heard, a found key is kept no longer than AUTH_CACHE_SECONDS.
 */
export const RevocationFollowerLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const notices = yield* RevocationNotices
    const keys = yield* ApiKeys
    yield* notices.listen.pipe(
      Stream.tapError((lost) =>
        Effect.logWarning(
          `Not hearing of API keys revoked on other server processes (${lost.cause instanceof Error ? lost.cause.message : String(lost.cause)}); listening again shortly, and until then such a key stops working here within AUTH_CACHE_SECONDS`
        )
      ),
      Stream.retry(relisten),
      Stream.runForEach(() => keys.forgetFound),
      Effect.forkScoped
    )
  })
)
