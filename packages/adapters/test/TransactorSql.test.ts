import { UnmigratedEphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { TransactorSql } from "@cisbook/adapters/sql/TransactorSql"
import { StoreBusy } from "@cisbook/core/system/StoreBusy"
import { Transactor } from "@cisbook/core/system/Transactor"
import { SqlClient } from "@effect/sql"
import { assert, expect, layer } from "@effect/vitest"
import { Cause, Chunk, Effect, Exit, Layer } from "effect"

/** The defect a transaction whose statement fails with `sqlState` dies of. */
const defectOf = (sqlState: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { transaction } = yield* Transactor
    const exit = yield* Effect.exit(
      transaction(
        sql
          .unsafe(`DO $$ BEGIN RAISE EXCEPTION 'staged failure' USING ERRCODE = '${sqlState}'; END $$`)
          .pipe(Effect.orDie)
      )
    )
    assert.isTrue(Exit.isFailure(exit))
    return Exit.isFailure(exit) ? Chunk.unsafeHead(Cause.defects(exit.cause)) : undefined
  })

layer(TransactorSql.pipe(Layer.provideMerge(UnmigratedEphemeralDatabase)))("TransactorSql", (it) => {
  it.effect("a failure that passes dies as StoreBusy, naming it, so that the use case may try again", () =>
    Effect.gen(function* () {
      for (const [sqlState, reason] of [
        ["40P01", "a deadlock"],
        ["40001", "a serialization failure"],
        ["55P03", "a lock time-out"],
        ["57014", "a statement time-out"],
        ["08006", "a lost connection"]
      ] as const) {
        const defect = yield* defectOf(sqlState)
        assert.instanceOf(defect, StoreBusy)
        expect(defect.reason).toBe(reason)
      }
    })
  )

  it.effect("any other SQL failure stays a defect of its own, not one to try again", () =>
    Effect.gen(function* () {
      for (const sqlState of ["23514", "22P02", "42703"]) {
        const defect = yield* defectOf(sqlState)
        expect(defect).not.toBeInstanceOf(StoreBusy)
        expect(defect).toMatchObject({ _tag: "SqlError" })
      }
    })
  )
})
