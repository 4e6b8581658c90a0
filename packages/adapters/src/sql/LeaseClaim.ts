import type { SqlClient, SqlError } from "@effect/sql"
import { Statement } from "@effect/sql"
import type { Effect } from "effect"

/**
 * The rows of a background job's table and how one of them falls due. The table has a
 * `leased_until timestamptz` column and, when `token` is true, a `lease_token uuid` column: a
 * worker settles a row only while it still holds it with its token.
 */
export interface LeasedRows {
  /** The table, and the alias every fragment and expression below uses for it. */
  readonly table: string
  readonly alias: string
  /** The columns of its primary key. */
  readonly key: ReadonlyArray<string>
  /** Whether the table has a `lease_token` column (without one a row is leased by `leased_until` alone). */
  readonly token: boolean
  /** When a row is due, besides its lease having run out. */
  readonly due: (now: Date) => Statement.Fragment
  /** Tables the due condition also reads (`JOIN webhooks w ON ...`); only the leased table's rows are locked. */
  readonly join?: Statement.Fragment
  /** The expression the due rows are taken in, the first `limit` of them. */
  readonly order: string
  /** More to set on a claimed row beside its lease (`attempts = v.attempts + 1`). */
  readonly set?: Statement.Fragment
  /** Tables what is returned also reads (`events e, webhooks w`), and how they meet the claimed row. */
  readonly from?: { readonly tables: string; readonly where: Statement.Fragment }
  /** What a claimed row returns (qualify with `alias`: the statement's FROM has the key columns twice, and `from`'s tables may too). */
  readonly returning: (now: Date) => Statement.Fragment
}

export interface Lease<Token extends string | null> {
  readonly now: Date
  readonly leaseUntil: Date
  readonly limit: number
  /** The claim's token (null for a table without a `lease_token` column). */
  readonly token: Token
}

export interface LeaseClaim<Token extends string | null> {
  /**
   * Leases up to `limit` due rows whose lease is free or has run out, in one statement, and
   * returns them (in no particular order). SKIP LOCKED: a row another worker is claiming right now
   * is passed over, not waited for.
   */
  readonly claim: (lease: Lease<Token>) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>
  /** A SET of the statement that settles a row: the lease ends with it. */
  readonly release: Statement.Fragment
}

const empty = Statement.unsafeFragment("")

/**
 * The claim and the release of a background job's rows, one of each for every job (see
 * MailOutboxSql for a plain one, DeliveryRepoSql for one that joins):
 *
 *   const leases = leaseClaim(sql, {
 *     table: "mail_outbox", alias: "m", key: ["tenant_id", "id"], token: true,
 *     due: (now) => sql`m.status = 'Queued' AND m.next_attempt_at <= ${now}`,
 *     order: "m.next_attempt_at",
 *     returning: () => sql`m.tenant_id, m.id, m.attempts`
 *   })
 *   const rows = yield* leases.claim({ now, leaseUntil, limit, token })
 *   yield* sql`UPDATE mail_outbox SET status = 'Sent', ${leases.release}
 *     WHERE tenant_id = ${t} AND id = ${id} AND lease_token = ${token}`
 */
export function leaseClaim(sql: SqlClient.SqlClient, rows: LeasedRows & { readonly token: true }): LeaseClaim<string>
export function leaseClaim(sql: SqlClient.SqlClient, rows: LeasedRows & { readonly token: false }): LeaseClaim<null>
export function leaseClaim(sql: SqlClient.SqlClient, rows: LeasedRows): LeaseClaim<string | null> {
  const { alias, key } = rows
  const leased = sql.literal(`${rows.table} ${alias}`)
  const aliased = sql.literal(alias)
  const keys = sql.literal(key.map((c) => `${alias}.${c}`).join(", "))
  const leasedUntil = sql.literal(`${alias}.leased_until`)
  const orderBy = sql.literal(rows.order)
  const sameKey = sql.literal(key.map((c) => `${alias}.${c} = due.${c}`).join(" AND "))
  const join = rows.join ?? empty
  const set = rows.set === undefined ? empty : sql`, ${rows.set}`
  const lease = ({ leaseUntil, token }: Lease<string | null>) =>
    token === null ? sql`leased_until = ${leaseUntil}` : sql`lease_token = ${token}, leased_until = ${leaseUntil}`
  const due = (l: Lease<string | null>) => sql`
    due AS (
      SELECT ${keys} FROM ${leased} ${join}
      WHERE (${rows.due(l.now)}) AND (${leasedUntil} IS NULL OR ${leasedUntil} <= ${l.now})
      ORDER BY ${orderBy}
      LIMIT ${l.limit}
      FOR UPDATE OF ${aliased} SKIP LOCKED
    )`
  const { from } = rows
  return {
    // With other tables to read, the leased rows are updated by their key alone and joined after:
    // joined in the UPDATE, the planner could reach them from the other tables (every delivery
    // of a webhook, scanned for each one claimed).
    claim: (l) =>
      from === undefined
        ? sql`
          WITH ${due(l)}
          UPDATE ${leased} SET ${lease(l)}${set}
          FROM due
          WHERE ${sameKey}
          RETURNING ${rows.returning(l.now)}`
        : sql`
          WITH ${due(l)},
          leased AS (
            UPDATE ${leased} SET ${lease(l)}${set}
            FROM due
            WHERE ${sameKey}
            RETURNING ${aliased}.*
          )
          SELECT ${rows.returning(l.now)}
          FROM leased ${aliased}, ${sql.literal(from.tables)}
          WHERE ${from.where}`,
    release: Statement.unsafeFragment(rows.token ? "lease_token = NULL, leased_until = NULL" : "leased_until = NULL")
  }
}
