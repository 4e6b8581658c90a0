import { CopyIn, copyLines } from "@cisbook/adapters/sql/CopyIn"
import { temporaryPostgresDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Cause, Config, Effect, Exit, Layer, Option } from "effect"

const onPostgres = Option.isSome(Config.option(Config.string("CISBOOK_TEST_DATABASE_URL")).pipe(Effect.runSync))

describe("COPY's text format", () => {
  it("writes a line a row, tabs between values, \\N for null, and escapes what would end a value", () => {
    expect(
      copyLines([
        ["plain", 42, true, null, new Date("2026-06-05T10:11:12.345Z")],
        ["tab\there", -1.5, false, "", "back\\slash \\N new\nline\r\n"]
      ])
    ).toBe(
      "plain\t42\tt\t\\N\t2026-06-05T10:11:12.345Z\n" + "tab\\there\t-1.5\tf\t\tback\\\\slash \\\\N new\\nline\\r\\n\n"
    )
    expect(copyLines([])).toBe("")
  })
})

describe.skipIf(!onPostgres)(
  "COPY on PostgreSQL (needs CISBOOK_TEST_DATABASE_URL: PGlite has no COPY FROM STDIN)",
  () => {
    const Postgres = Layer.unwrapEffect(
      Effect.map(Config.redacted("CISBOOK_TEST_DATABASE_URL"), temporaryPostgresDatabase)
    )
    layer(Postgres, { excludeTestServices: true, timeout: "60 seconds" })((it) => {
      it.effect("loads rows on the transaction's connection, each value as it was, and rolls back with it", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const copy = yield* CopyIn
          yield* sql`CREATE TABLE copied (name text, amount integer, active boolean, due date, at timestamptz, note text)`
          const rows = [
            ["Tab\there, back\\slash \\N", 3, true, "2026-06-05", new Date("2026-06-05T10:11:12.345Z"), null],
            ["Łódź — Zoë’s 🏗", 2, false, null, null, "line one\nline two\r\n"],
            ["\\N", -1, null, "2026-01-31", null, ""]
          ] as const
          yield* sql.withTransaction(copy.rows("copied", ["name", "amount", "active", "due", "at", "note"], rows))
          const read = yield* sql<{
            readonly name: string
            readonly amount: number
            readonly active: boolean | null
            readonly due: string | null
            readonly at: Date | null
            readonly note: string | null
          }>`SELECT name, amount, active, due, at, note FROM copied ORDER BY amount DESC`
          expect(read.map((r) => [r.name, r.amount, r.active, r.due, r.at, r.note])).toEqual(rows)

          // A COPY that fails fails the transaction, which takes its other writes back with it.
          const failed = yield* Effect.exit(
            sql.withTransaction(
              Effect.zipRight(
                sql`INSERT INTO copied (name, amount) VALUES ('kept?', 9)`,
                copy.rows("copied", ["name", "amount"], [["not a number", "x"]])
              )
            )
          )
          expect(Exit.isFailure(failed)).toBe(true)
          expect(yield* sql`SELECT name FROM copied WHERE amount = 9`).toEqual([])
          // The connection is usable again.
          expect((yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM copied`)[0]?.n).toBe(3)
        })
      )

      it.effect("runs only in a transaction", () =>
        Effect.gen(function* () {
          const copy = yield* CopyIn
          const outside = yield* Effect.exit(copy.rows("copied", ["name"], [["alone"]]))
          expect(Exit.isFailure(outside) && Cause.pretty(outside.cause)).toMatch(/COPY runs in a transaction/)
        })
      )
    })
  }
)
