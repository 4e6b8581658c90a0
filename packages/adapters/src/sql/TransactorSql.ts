import { Transactor } from "@cisbook/core/system/Transactor"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"

/** Marks the effect's own failures, so that the transaction's SQL failures can be told apart. */
class Failed<E> {
  constructor(readonly error: E) {}
}

export const TransactorSql = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Transactor.of({
      transaction: (effect) =>
        sql
          .withTransaction(Effect.mapError(effect, (error) => new Failed(error)))
          .pipe(
            Effect.catchAll((failure) => (failure instanceof Failed ? Effect.fail(failure.error) : Effect.die(failure)))
          )
    })
  )
)
