import { RateLimitsOff } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import { postgresDatabase } from "@cisbook/adapters/sql/Database"
import { temporaryPostgresUrl } from "@cisbook/adapters/sql/EphemeralDatabase"
import { migrate } from "@cisbook/adapters/sql/Migrations"
import { revocationNoticesPg } from "@cisbook/adapters/sql/RevocationNoticesPg"
import { LookupCacheTtl } from "@cisbook/core/LookupCache"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Users } from "@cisbook/core/users/Users"
import { type Client, makeClient } from "@cisbook/sdk/Client"
import { HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Config, type Context, Duration, Effect, Layer, Option, type Redacted, Schedule } from "effect"
import { HttpAppLive } from "../src/HttpAppLive.js"
import { DEFAULT_SERVER_LIMITS, makeNodeServer } from "../src/transport/NodeServer.js"
import { RevocationFollowerLive } from "../src/workers/RevocationFollower.js"
import { uniqueEmail } from "./E2E.js"
import { appOver } from "./WorkerTestApp.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const postgresUrl = Config.option(Config.redacted("CISBOOK_TEST_DATABASE_URL")).pipe(Effect.runSync)

/** Far longer than the test waits: a key that stops working did so because it was told, not because time ran out. */
const CACHE_TTL = Duration.minutes(5)

/** One server process as main.ts composes it (the API and the revocation follower), on its own connections. */
const serverProcess = (url: Redacted.Redacted) =>
  Layer.mergeAll(
    HttpAppLive.pipe(Layer.provide(RateLimitsOff)),
    RevocationFollowerLive.pipe(Layer.provide(revocationNoticesPg(url, { heartbeat: "1 second" })))
  ).pipe(
    Layer.provideMerge(appOver(postgresDatabase(url))),
    Layer.provideMerge(NodeHttpServer.layer(() => makeNodeServer(DEFAULT_SERVER_LIMITS), { port: 0 })),
    Layer.provide(Layer.succeed(LookupCacheTtl, CACHE_TTL))
  )

const HttpClientLive = NodeHttpClient.layerWithoutAgent.pipe(
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false }))
)

/** Asks until the key is refused, for at most two seconds. */
const refusedSoon = (api: Client) =>
  api.me.getMe().pipe(
    Effect.flip,
    Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo("2 seconds"))),
    Effect.map((error) => error._tag)
  )

const listenerPids = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ readonly pid: number }>`
    SELECT pid FROM pg_stat_activity
    WHERE application_name = 'cisbook revocation listener' AND datname = current_database()`
).pipe(Effect.map((rows) => rows.map((row) => row.pid).sort()))

describe.skipIf(Option.isNone(postgresUrl))(
  "two server processes on one PostgreSQL (needs CISBOOK_TEST_DATABASE_URL: the embedded database has one process)",
  () => {
    layer(HttpClientLive, { excludeTestServices: true, timeout: "60 seconds" })("revoking an API key", (it) => {
      it.scoped("stops it on the other process at once, and again after the listening connections were lost", () =>
        Effect.gen(function* () {
          const url = yield* temporaryPostgresUrl(Option.getOrThrow(postgresUrl))
          const processA = yield* Layer.build(serverProcess(url))
          const processB = yield* Layer.build(serverProcess(url))
          yield* Effect.provide(migrate, processA)
          const baseUrl = (process: Context.Context<HttpServer.HttpServer>) =>
            Effect.provide(HttpServer.addressFormattedWith(Effect.succeed), process)
          const [urlA, urlB] = [yield* baseUrl(processA), yield* baseUrl(processB)]

          const { user, keys } = yield* Effect.gen(function* () {
            const user = yield* (yield* Users).create({ email: uniqueEmail("revoker"), name: "Revoker" })
            const keys = yield* ApiKeys
            return {
              user,
              keys: [
                yield* keys.issue("admin").pipe(asUser(user)),
                yield* keys.issue("first").pipe(asUser(user)),
                yield* keys.issue("second").pipe(asUser(user))
              ]
            }
          }).pipe(Effect.provide(processA))
          const [admin, first, second] = keys as [(typeof keys)[0], (typeof keys)[0], (typeof keys)[0]]
          const onA = yield* makeClient({ baseUrl: urlA, credentials: { apiKey: admin.key } })
          const onB = (key: string) => makeClient({ baseUrl: urlB, credentials: { apiKey: key } })

          // B has found the key (and keeps it for CACHE_TTL) before A revokes it.
          const firstOnB = yield* onB(first.key)
          expect((yield* firstOnB.me.getMe()).id).toBe(user.id)
          yield* onA.me.revokeApiKey({ path: { apiKey: first.apiKey.id } })
          expect(yield* refusedSoon(firstOnB)).toBe("Unauthorized")

          // Both listening connections are cut; each process listens again on a new one.
          const cut = yield* listenerPids.pipe(Effect.provide(processA))
          expect(cut).toHaveLength(2)
          yield* Effect.flatMap(
            SqlClient.SqlClient,
            (sql) => sql`SELECT pg_terminate_backend(pid) FROM unnest(${cut}::int[]) AS pid`
          ).pipe(Effect.provide(processA))
          yield* listenerPids.pipe(
            Effect.provide(processA),
            Effect.filterOrFail((pids) => pids.length === 2 && pids.every((pid) => !cut.includes(pid))),
            Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("10 seconds")))
          )
          const secondOnB = yield* onB(second.key)
          expect((yield* secondOnB.me.getMe()).id).toBe(user.id)
          yield* onA.me.revokeApiKey({ path: { apiKey: second.apiKey.id } })
          expect(yield* refusedSoon(secondOnB)).toBe("Unauthorized")
        })
      )
    })
  }
)
