import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer, Option, String } from "effect"
import type * as Pg from "pg"
import { from } from "pg-copy-streams"

/** A value as COPY's text format can carry it. A date column takes its "YYYY-MM-DD" text. */
export type CopyValue = string | number | boolean | Date | null

/**
 * PostgreSQL's bulk load: rows written with `COPY table (columns) FROM STDIN` on the connection
 * of the caller's transaction, so they commit or roll back with it, and no statement of
 * thousands of values is built, parsed or bound. Only a PostgreSQL server offers it: the
 * embedded PGlite has no COPY FROM STDIN, and its adapters write with INSERT.
 */
export class CopyIn extends Context.Tag("adapters/CopyIn")<
  CopyIn,
  {
    /** `columns` are named as the rest of the code names them (camelCase), each row in their order. */
    readonly rows: (
      table: string,
      columns: ReadonlyArray<string>,
      rows: ReadonlyArray<ReadonlyArray<CopyValue>>
    ) => Effect.Effect<void, SqlError>
  }
>() {}

const SPECIAL = /[\\\n\r\t]/g
const HAS_SPECIAL = /[\\\n\r\t]/
const ESCAPES: Readonly<Record<string, string>> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" }

/** One value in COPY's text format: `\N` for null, and backslash, new lines and tabs escaped. */
const copyText = (value: CopyValue): string => {
  if (value === null) return "\\N"
  if (typeof value === "boolean") return value ? "t" : "f"
  if (typeof value === "number") return `${value}`
  if (value instanceof Date) return value.toISOString()
  // Most values have nothing to escape: a test is cheaper than a replace that calls back.
  return HAS_SPECIAL.test(value) ? value.replace(SPECIAL, (c) => ESCAPES[c]!) : value
}

/** What COPY reads: a line a row, its values separated by tabs. */
export const copyLines = (rows: ReadonlyArray<ReadonlyArray<CopyValue>>): string => {
  let text = ""
  for (const row of rows) text += `${row.map(copyText).join("\t")}\n`
  return text
}

/**
 * The node-postgres client of the transaction in progress. @effect/sql-pg keeps it on the
 * transaction's connection (`pg`); there is no other way to reach it for COPY.
 */
const transactionClient = Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) => {
  const client = Option.getOrUndefined(
    Option.map(transaction, ([connection]) => (connection as { pg?: Pg.PoolClient }).pg)
  )
  return client === undefined
    ? Effect.dieMessage("COPY runs in a transaction on a node-postgres connection")
    : Effect.succeed(client)
})

const copy = (client: Pg.PoolClient, statement: string, text: string) =>
  Effect.async<void, SqlError>((resume) => {
    const stream = client.query(from(statement))
    stream.on("finish", () => resume(Effect.void))
    stream.on("error", (cause) => resume(Effect.fail(new SqlError({ cause, message: "Failed to copy rows" }))))
    stream.end(text)
  })

export const CopyInPg = Layer.succeed(
  CopyIn,
  CopyIn.of({
    rows: (table, columns, rows) =>
      rows.length === 0
        ? Effect.void
        : Effect.flatMap(transactionClient, (client) =>
            copy(client, `COPY ${table} (${columns.map(String.camelToSnake).join(", ")}) FROM STDIN`, copyLines(rows))
          ).pipe(Effect.withSpan("CopyIn.rows", { attributes: { table, rows: rows.length } }))
  })
)
