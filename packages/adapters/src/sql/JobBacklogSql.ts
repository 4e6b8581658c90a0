import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/**
 * Where a background job's items wait: its table, the instant an item falls due, and what else
 * makes an item claimable (as the job's claim says). `job` is the name its worker runs under.
 */
export interface JobTable {
  readonly job: string
  readonly from: string
  readonly dueAt: string
  readonly claimable: string
}

/** Every job's table. A new job adds its entry here, and its backlog is watched. */
export const JOB_TABLES: ReadonlyArray<JobTable> = [
  {
    job: "webhook_deliveries",
    from: "webhook_deliveries d JOIN webhooks w ON w.tenant_id = d.tenant_id AND w.id = d.webhook_id",
    dueAt: "coalesce(d.retry_requested_at, d.next_attempt_at)",
    claimable: "w.enabled AND (d.leased_until IS NULL OR d.leased_until <= now())"
  },
  {
    job: "mail",
    from: "mail_outbox",
    dueAt: "next_attempt_at",
    claimable: "status = 'Queued' AND (leased_until IS NULL OR leased_until <= now())"
  },
  {
    job: "verification_requests",
    from: "verification_requests",
    dueAt: "due_at",
    claimable: "leased_until IS NULL OR leased_until <= now()"
  },
  {
    job: "monthly_returns",
    from: "monthly_returns",
    dueAt: "next_attempt_at",
    claimable: "status = 'Submitted' AND (leased_until IS NULL OR leased_until <= now())"
  },
  {
    job: "statement_deliveries",
    from: "return_statements",
    dueAt: "issued_at",
    claimable: "delivery_status = 'Due' AND (leased_until IS NULL OR leased_until <= now())"
  },
  {
    job: "provider_events",
    from: "provider_events",
    dueAt: "next_attempt_at",
    claimable: "handled = 'pending' AND (leased_until IS NULL OR leased_until <= now())"
  }
]

/** How many of a job's items are due and unclaimed, and how long the oldest of them has waited. */
export interface JobBacklog {
  readonly job: string
  readonly due: number
  readonly oldestDueSeconds: number
}

const backlogOf = (sql: SqlClient.SqlClient, table: JobTable) =>
  sql
    .unsafe<{ readonly due: number; readonly oldestDueSeconds: number | null }>(
      `SELECT count(*)::int AS due,
         extract(epoch FROM now() - min(${table.dueAt}))::float8 AS oldest_due_seconds
       FROM ${table.from}
       WHERE ${table.dueAt} <= now() AND (${table.claimable})`
    )
    .pipe(
      Effect.map(([row]): JobBacklog => ({
        job: table.job,
        due: row?.due ?? 0,
        oldestDueSeconds: Math.max(0, row?.oldestDueSeconds ?? 0)
      }))
    )

/** Every job's backlog, across all tenants (counts only), for the operators' metrics. */
export const readJobBacklogs: Effect.Effect<ReadonlyArray<JobBacklog>, SqlError, SqlClient.SqlClient> = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => Effect.forEach(JOB_TABLES, (table) => backlogOf(sql, table))
)
