import { Transactor } from "@cisbook/core/system/Transactor"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { transientSqlFailure } from "./TransientSqlFailure.js"

/** Marks the effect's own failures, so that the transaction's SQL failures can be told apart. */
class Failed<E> {
  constructor(readonly error: E) {}
}

/** A SQL failure of the transaction is a defect; one that passes (a deadlock, a lost connection, …) dies as StoreBusy, for the use case to try again. */
const sqlDefect = (defect: unknown) => Effect.die(transientSqlFailure(defect) ?? defect)

export const TransactorSql = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Transactor.of({
      transaction: (effect) =>
        sql.withTransaction(Effect.mapError(effect, (error) => new Failed(error))).pipe(
          Effect.catchAll((failure) => (failure instanceof Failed ? Effect.fail(failure.error) : sqlDefect(failure))),
          Effect.catchAllDefect(sqlDefect)
        )
    })
  )
)
