import { RateLimited, RateLimits } from "@cisbook/core/system/RateLimits"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Layer, Runtime } from "effect"
import ipaddr from "ipaddr.js"
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible"
import type { RateLimit, RateLimitSettings } from "./RateLimitSettings.js"

/** The one query shape rate-limiter-flexible's PostgreSQL store sends (its statement names are a pg cache hint). */
interface StoreQuery {
  readonly text: string
  readonly values?: ReadonlyArray<unknown>
}

/** The methods of the store limiter that its typings leave out. */
interface InMemoryBlocks {
  readonly getInMemoryBlockMsBeforeExpire: (rlKey: string) => number
}

const TABLE = "rate_limits"

/**
 * rate-limiter-flexible's PostgreSQL store (counters shared by every server process) over the
 * service's own SQL client, so it runs on PostgreSQL and the embedded PGlite alike. A key that
 * used its points is also blocked in this process's memory until its window ends, so a blocked
 * client costs no query; if the store fails, a memory limiter stands in.
 */
const limiterOver = (store: { query: (q: StoreQuery) => Promise<unknown> }, keyPrefix: string, limit: RateLimit) => {
  const duration = Math.ceil(Duration.toSeconds(limit.window))
  return new RateLimiterPostgres({
    storeClient: store,
    storeType: "pool",
    tableName: TABLE,
    tableCreated: true,
    keyPrefix,
    points: limit.points,
    duration,
    inMemoryBlockOnConsumed: limit.points,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: limit.points, duration })
  })
}

/**
 * The key an address is counted under: an IPv4 address (IPv4-mapped IPv6 included) as itself,
 * an IPv6 address by its /64, the least a site is given (an attacker has the whole of it).
 */
export const addressKey = (address: string): string => {
  // Not an address (a proxy's odd X-Forwarded-For entry): kept short enough for the key column.
  if (!ipaddr.isValid(address)) return address.slice(0, 200)
  const parsed = ipaddr.process(address)
  if (parsed.kind() === "ipv4") return parsed.toString()
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4)
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`
}

const retryIn = (limit: RateLimited["limit"], ms: number) =>
  new RateLimited({ limit, retryAfter: Duration.millis(Math.max(ms, 1)) })

/**
 * Consumes a point; RateLimited when the key is over its limit. Answers what is left of the
 * key's budget, or none when the store failed (which counts as allowed).
 */
const consume = (
  limiter: RateLimiterAbstract,
  key: string,
  limit: RateLimited["limit"]
): Effect.Effect<RateLimiterRes | undefined, RateLimited> =>
  Effect.tryPromise({
    try: () => limiter.consume(key),
    catch: (rejection) => rejection
  }).pipe(
    Effect.catchAll((rejection) =>
      rejection instanceof RateLimiterRes
        ? Effect.fail(retryIn(limit, rejection.msBeforeNext))
        : Effect.as(
            Effect.logWarning("The rate limiter could not count a request; it was let through", rejection),
            undefined
          )
    )
  )

/** What is left of an address's budget of requests after one: how many more, and when it is whole again. */
export interface RequestsLeft {
  readonly remaining: number
  readonly resetAfter: Duration.Duration
}

/**
 * A budget of requests per client address (its key as `addressKey` makes it), counted in this
 * process's memory: what is left of it after each request, RateLimited past it; 0 points is no
 * limit (nothing is counted, nothing is left to tell).
 */
export const addressRequestLimit = (keyPrefix: string, limit: RateLimit) =>
  Effect.sync(() => {
    if (limit.points === 0) {
      return (_address: string): Effect.Effect<RequestsLeft | undefined, RateLimited> => Effect.succeed(undefined)
    }
    const limiter = new RateLimiterMemory({
      keyPrefix,
      points: limit.points,
      duration: Math.ceil(Duration.toSeconds(limit.window))
    })
    return (address: string): Effect.Effect<RequestsLeft | undefined, RateLimited> =>
      Effect.map(consume(limiter, addressKey(address), "Requests"), (left) =>
        left === undefined
          ? undefined
          : { remaining: left.remainingPoints, resetAfter: Duration.millis(left.msBeforeNext) }
      )
  })

export const rateLimitsFlexible = (settings: RateLimitSettings) =>
  Layer.effect(
    RateLimits,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const runPromise = Runtime.runPromise(yield* Effect.runtime<never>())
      const store = {
        query: (q: StoreQuery) =>
          runPromise(sql.unsafe<Record<string, unknown>>(q.text, q.values ?? [])).then((rows) => ({
            rows,
            rowCount: rows.length
          }))
      }
      const failures =
        settings.authenticationFailures.points > 0
          ? limiterOver(store, "auth-failures", settings.authenticationFailures)
          : undefined
      const { shared, ...requestLimit } = settings.requests
      // Per process by default: a shared count is one more statement on every request (measured
      // +300 µs of CPU a request, about half the throughput of a cached GET /me).
      const requests =
        requestLimit.points === 0
          ? undefined
          : shared
            ? limiterOver(store, "requests", requestLimit)
            : new RateLimiterMemory({
                keyPrefix: "requests",
                points: requestLimit.points,
                duration: Math.ceil(Duration.toSeconds(requestLimit.window))
              })

      return RateLimits.of({
        mayAuthenticate: (address) => {
          if (failures === undefined) return Effect.void
          const blockedFor = (failures as unknown as InMemoryBlocks).getInMemoryBlockMsBeforeExpire(
            failures.getKey(addressKey(address))
          )
          return blockedFor > 0 ? Effect.fail(retryIn("AuthenticationFailures", blockedFor)) : Effect.void
        },
        authenticationFailed: (address) =>
          failures === undefined
            ? Effect.void
            : Effect.ignore(consume(failures, addressKey(address), "AuthenticationFailures")),
        request: (userId) =>
          requests === undefined ? Effect.void : Effect.asVoid(consume(requests, userId, "Requests"))
      })
    })
  )

/** No limits: every request is let through. */
export const RateLimitsOff = Layer.succeed(
  RateLimits,
  RateLimits.of({
    mayAuthenticate: () => Effect.void,
    authenticationFailed: () => Effect.void,
    request: () => Effect.void
  })
)
