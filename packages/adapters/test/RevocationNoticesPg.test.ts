import { postgresDatabase } from "@cisbook/adapters/sql/Database"
import { temporaryPostgresUrl } from "@cisbook/adapters/sql/EphemeralDatabase"
import { MigrationsLive } from "@cisbook/adapters/sql/Migrations"
import { revocationNoticesPg } from "@cisbook/adapters/sql/RevocationNoticesPg"
import { Email } from "@cisbook/core/Email"
import { type RevocationNotice, RevocationNotices } from "@cisbook/core/system/RevocationNotices"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Users } from "@cisbook/core/users/Users"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Config, Effect, Fiber, Layer, Option, Queue, Stream } from "effect"
import { useCasesOver } from "./UseCasesOverSql.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const postgresUrl = Config.option(Config.redacted("CISBOOK_TEST_DATABASE_URL")).pipe(Effect.runSync)

describe.skipIf(Option.isNone(postgresUrl))(
  "revocation notices by LISTEN/NOTIFY (needs CISBOOK_TEST_DATABASE_URL: the embedded database has one process to tell)",
  () => {
    layer(Layer.empty, { excludeTestServices: true, timeout: "60 seconds" })("revocation notices", (it) => {
      it.scoped(
        "announce a committed revocation to a listener, never a rolled-back one, and fail when the connection is lost",
        () =>
          Effect.gen(function* () {
            const url = yield* temporaryPostgresUrl(Option.getOrThrow(postgresUrl))
            const app = yield* Layer.build(useCasesOver(MigrationsLive.pipe(Layer.provideMerge(postgresDatabase(url)))))
            const notices = yield* Effect.provide(
              RevocationNotices,
              revocationNoticesPg(url, { heartbeat: "1 second" })
            )
            const heard = yield* Queue.unbounded<RevocationNotice>()
            const next = Queue.take(heard).pipe(
              Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => "nothing heard" })
            )
            const listening = yield* notices.listen.pipe(
              Stream.runForEach((notice) => Queue.offer(heard, notice)),
              Effect.forkScoped
            )
            expect(yield* next).toEqual({ _tag: "Listening" })

            yield* Effect.gen(function* () {
              const sql = yield* SqlClient.SqlClient
              const keys = yield* ApiKeys
              const user = yield* (yield* Users).create({ email: Email.make("revoker@example.com"), name: "Revoker" })
              const kept = yield* keys.issue("kept").pipe(asUser(user))
              const revoked = yield* keys.issue("revoked").pipe(asUser(user))
              // Revoked, then rolled back: no one may be told.
              yield* sql
                .withTransaction(Effect.zipRight(keys.revoke(kept.apiKey.id).pipe(asUser(user)), Effect.fail("undo")))
                .pipe(Effect.flip)
              yield* keys.revoke(revoked.apiKey.id).pipe(asUser(user))
              expect(yield* next).toEqual({ _tag: "Revoked", id: revoked.apiKey.id })

              yield* sql`
              SELECT pg_terminate_backend(pid) FROM pg_stat_activity
              WHERE application_name = 'cisbook revocation listener' AND datname = current_database()`
            }).pipe(Effect.provide(app))
            const lost = yield* Fiber.join(listening).pipe(Effect.flip)
            expect(lost._tag).toBe("RevocationNoticesLost")
            expect(yield* Queue.size(heard)).toBe(0)
          })
      )
    })
  }
)
