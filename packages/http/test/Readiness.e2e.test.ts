import { StorageHealth } from "@cisbook/core/system/StorageHealth"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { NotReady } from "@cisbook/sdk/Problem"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ShuttingDown, ShuttingDownLive } from "../src/transport/ShuttingDown.js"
import { client, e2e, raw, SqlTestPorts } from "./E2E.js"

const expectNotReady = (detail: RegExp) =>
  Effect.gen(function* () {
    const answer = yield* raw(undefined, "GET", "/health/ready")
    expect(answer.status).toBe(503)
    expect(answer.contentType).toMatch(/^application\/problem\+json/)
    expect(answer.body).toMatchObject({ status: 503, title: "Service Unavailable" })
    expect(answer.body?.["detail"]).toMatch(detail)
    // The SDK reads it as the contract's NotReady.
    const error = yield* Effect.flip((yield* client()).system.ready())
    expect(error).toBeInstanceOf(NotReady)
  })

describe("GET /health/ready", () => {
  // The test database is the one the ports stand on (a layer is built once however often it is used).
  const app = e2e(SqlTestPorts).pipe(Layer.provideMerge(ShuttingDownLive), Layer.provideMerge(EphemeralDatabase))

  layer(app)("over a migrated database", (it) => {
    it.effect("answers 200 while the database answers with every migration run", () =>
      Effect.gen(function* () {
        expect(yield* (yield* client()).system.ready()).toEqual({ status: "ready" })
        const answer = yield* raw(undefined, "GET", "/health/ready")
        expect(answer.status).toBe(200)
      })
    )

    it.effect("answers 503 while a migration this version knows has not run, and 200 once it has", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ migrationId: number; name: string; createdAt: Date }>`
          DELETE FROM effect_sql_migrations WHERE migration_id = 15 RETURNING *`
        yield* expectNotReady(/schema is behind.*0015_return_correlation/)
        yield* sql`INSERT INTO effect_sql_migrations ${sql.insert(rows[0]!)}`
        expect((yield* raw(undefined, "GET", "/health/ready")).status).toBe(200)
        // Liveness never asks the database.
        expect((yield* raw(undefined, "GET", "/health")).status).toBe(200)
      })
    )

    it.effect("answers 503 once the process has begun to shut down", () =>
      Effect.gen(function* () {
        ;(yield* ShuttingDown).begin()
        yield* expectNotReady(/shutting down/)
        expect((yield* raw(undefined, "GET", "/health")).status).toBe(200)
      })
    )
  })

  // StorageHealthSql's own test shows a database that does not answer is reported so.
  const DatabaseGone = Layer.succeed(StorageHealth, {
    check: Effect.succeed({ _tag: "Unreachable" as const, reason: "connect ECONNREFUSED 127.0.0.1:5432" })
  })

  layer(e2e(Layer.merge(SqlTestPorts, DatabaseGone)))("when the database does not answer", (it) => {
    it.effect("answers 503", () => expectNotReady(/database does not answer/))
  })
})
