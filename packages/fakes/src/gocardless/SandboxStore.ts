import { SqlClient, type SqlError } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import type { Page, Paged } from "./SandboxPaging.js"

/** A sandbox resource as the API shows it, plus `_internal` state the API never shows. */
export type Resource = Record<string, unknown> & { readonly id: string; readonly _internal?: Record<string, unknown> }

export type Kind =
  "billing_requests" | "billing_request_flows" | "mandates" | "customers" | "customer_bank_accounts" | "payments"

/** An event as GoCardless shows it (GET /events, and in its notifications). */
export type SandboxEvent = Record<string, unknown> & {
  readonly id: string
  readonly resource_type: string
  readonly action: string
}

/** A notification the sandbox is to send, leased by one sender. */
export interface ClaimedNotification {
  readonly id: string
  readonly body: string
  readonly attempts: number
  readonly leaseToken: string
}

/** What came of sending a notification: delivered, to be tried again at a time, or given up. */
export interface NotificationOutcome {
  readonly id: string
  readonly leaseToken: string
  readonly nextAttemptAt: Date | null
  readonly deliveredAt: Date | null
  readonly error: string | null
}

/** What a list may be narrowed by: a column or a JSON path of the body, equal to one of some values. */
export interface ListFilter {
  readonly path: ReadonlyArray<string>
  readonly values: ReadonlyArray<string>
}

type Table = "gocardless_sandbox_resources" | "gocardless_sandbox_events"

/** The resource as GoCardless would answer it. */
export const publicView = ({ _internal, ...shown }: Resource) => shown

/** The sandbox's resources, events and notifications in the service's database; jsonb bodies go as JSON text. */
export const makeSandboxStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const load = (kind: Kind, id: string) =>
    sql<{ readonly body: Resource }>`
      SELECT body FROM gocardless_sandbox_resources WHERE kind = ${kind} AND id = ${id} FOR UPDATE`.pipe(
      Effect.map((rows) => rows[0]?.body),
      Effect.orDie
    )

  const insert = (kind: Kind, resource: Resource, at: Date) =>
    sql`INSERT INTO gocardless_sandbox_resources ${sql.insert({
      id: resource.id,
      kind,
      body: JSON.stringify(resource),
      createdAt: at
    })}`.pipe(Effect.asVoid, Effect.orDie)

  const save = (resource: Resource) =>
    sql`UPDATE gocardless_sandbox_resources SET body = ${JSON.stringify(resource)}::jsonb WHERE id = ${resource.id}`.pipe(
      Effect.asVoid,
      Effect.orDie
    )

  const paymentsOfMandate = (mandateId: string) =>
    sql<{ readonly body: Resource }>`
      SELECT body FROM gocardless_sandbox_resources
      WHERE kind = 'payments' AND body -> 'links' ->> 'mandate' = ${mandateId}
      ORDER BY created_at FOR UPDATE`.pipe(
      Effect.map((rows) => rows.map((row) => row.body)),
      Effect.orDie
    )

  /** `body #>> '{links,mandate}' IN (...)`; paths are the sandbox's own constants, never a caller's text. */
  const matches = (filter: ListFilter): Fragment =>
    sql`body #>> ${sql.literal(`'{${filter.path.join(",")}}'`)} IN ${sql.in(filter.values)}`

  /**
   * One page of a list, newest first as GoCardless lists them: the `limit` items after the
   * `after` cursor (older) or before the `before` cursor (newer), and the cursors around them.
   */
  const page = <A extends { readonly id: string }>(
    table: Table,
    scope: Fragment,
    filters: ReadonlyArray<ListFilter>,
    { after, before, limit }: Page
  ): Effect.Effect<Paged<A>> =>
    Effect.gen(function* () {
      const where = sql.and([scope, ...filters.map(matches)])
      const cursor = after ?? before
      const position =
        cursor === undefined
          ? sql`true`
          : sql`(created_at, id) ${sql.literal(after !== undefined ? "<" : ">")}
              (SELECT created_at, id FROM ${sql(table)} WHERE id = ${cursor})`
      const direction = sql.literal(before !== undefined ? "ASC" : "DESC")
      const rows = yield* sql<{ readonly body: A }>`
        SELECT body FROM ${sql(table)} WHERE ${where} AND ${position}
        ORDER BY created_at ${direction}, id ${direction} LIMIT ${limit + 1}`
      const more = rows.length > limit
      const shown = rows.slice(0, limit).map((row) => row.body)
      const items = before !== undefined ? shown.reverse() : shown
      const first = items[0]?.id ?? null
      const last = items[items.length - 1]?.id ?? null
      return before !== undefined
        ? { items, cursors: { before: more ? first : null, after: last } }
        : { items, cursors: { before: after !== undefined ? first : null, after: more ? last : null } }
    }).pipe(Effect.orDie)

  const list = (kind: Kind, filters: ReadonlyArray<ListFilter>, at: Page) =>
    page<Resource>("gocardless_sandbox_resources", sql`kind = ${kind}`, filters, at)

  /** The ids of a customer's mandates, to list the payments of a customer. */
  const mandatesOfCustomer = (customerIds: ReadonlyArray<string>) =>
    sql<{ readonly id: string }>`
      SELECT id FROM gocardless_sandbox_resources
      WHERE kind = 'mandates' AND body -> 'links' ->> 'customer' IN ${sql.in(customerIds)}`.pipe(
      Effect.map((rows) => rows.map((row) => row.id)),
      Effect.orDie
    )

  const listEvents = (filters: ReadonlyArray<ListFilter>, at: Page) =>
    page<SandboxEvent>("gocardless_sandbox_events", sql`true`, filters, at)

  const loadEvent = (id: string) =>
    sql<{ readonly body: SandboxEvent }>`SELECT body FROM gocardless_sandbox_events WHERE id = ${id}`.pipe(
      Effect.map((rows) => rows[0]?.body),
      Effect.orDie
    )

  /** Records events and the notification that tells of them, in the caller's transaction. */
  const recordEvents = (
    events: ReadonlyArray<SandboxEvent>,
    notifications: ReadonlyArray<{ readonly id: string; readonly body: string }>,
    at: Date
  ) =>
    Effect.gen(function* () {
      if (events.length === 0) return
      yield* sql`INSERT INTO gocardless_sandbox_events ${sql.insert(
        events.map((event) => ({
          id: event.id,
          resourceType: event.resource_type,
          action: event.action,
          body: JSON.stringify(event),
          createdAt: new Date(String(event["created_at"]))
        }))
      )}`
      yield* sql`INSERT INTO gocardless_sandbox_webhooks ${sql.insert(
        notifications.map((notification) => ({
          id: notification.id,
          body: notification.body,
          createdAt: at,
          nextAttemptAt: at
        }))
      )}`
    }).pipe(Effect.orDie)

  /** Deletes everything the sandbox made before `cutoff`; how many rows went. */
  const sweep = (cutoff: Date) =>
    Effect.gen(function* () {
      const counts = yield* Effect.all([
        sql`DELETE FROM gocardless_sandbox_resources WHERE created_at < ${cutoff} RETURNING id`,
        sql`DELETE FROM gocardless_sandbox_idempotency_keys WHERE created_at < ${cutoff} RETURNING key`,
        sql`DELETE FROM gocardless_sandbox_events WHERE created_at < ${cutoff} RETURNING id`,
        sql`DELETE FROM gocardless_sandbox_webhooks WHERE created_at < ${cutoff} RETURNING id`
      ])
      return counts.reduce((sum, rows) => sum + rows.length, 0)
    }).pipe(Effect.orDie)

  /**
   * Claims an idempotency key for a create: none when the key is new (and now taken by
   * `resourceId`), else the id of the resource an earlier request with the key made.
   */
  const claimKey = (kind: Kind, key: string, resourceId: string, at: Date) =>
    sql<{ readonly resourceId: string }>`
      INSERT INTO gocardless_sandbox_idempotency_keys ${sql.insert({ kind, key, resourceId, createdAt: at })}
      ON CONFLICT (kind, key) DO NOTHING RETURNING resource_id`.pipe(
      Effect.flatMap((claimed) =>
        claimed.length > 0
          ? Effect.succeed(undefined)
          : sql<{ readonly resourceId: string }>`
              SELECT resource_id FROM gocardless_sandbox_idempotency_keys WHERE kind = ${kind} AND key = ${key}`.pipe(
              Effect.map((rows) => rows[0]?.resourceId)
            )
      ),
      Effect.orDie
    )

  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))

  return {
    load,
    insert,
    save,
    paymentsOfMandate,
    list,
    mandatesOfCustomer,
    listEvents,
    loadEvent,
    recordEvents,
    sweep,
    claimKey,
    transaction
  } as const
})

export type SandboxStore = Effect.Effect.Success<typeof makeSandboxStore>

/**
 * The sandbox's notification outbox as the server's one lease-claim helper takes a job's rows
 * (adapters' `leaseClaim`, which the server applies to it: this package does not import adapters).
 */
export const notificationRows = (sql: SqlClient.SqlClient) => ({
  table: "gocardless_sandbox_webhooks",
  alias: "w",
  key: ["id"],
  token: true as const,
  due: (now: Date) => sql`w.next_attempt_at <= ${now}`,
  order: "w.next_attempt_at",
  returning: () => sql`w.id, w.body, w.attempts`
})

/** What the lease-claim helper makes of {@link notificationRows}: the claim, and the SET that ends a lease. */
export interface NotificationLeases {
  readonly claim: (lease: {
    readonly now: Date
    readonly leaseUntil: Date
    readonly limit: number
    readonly token: string
  }) => Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>
  readonly release: Fragment
}

/** The notifications the sandbox is to send: leased to one sender at a time, settled by the holder of the lease only. */
export const makeNotificationOutbox = (leases: NotificationLeases) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Leases due notifications until `leaseUntil`; a lease that ran out (its sender died) is due again. */
    const claim = (now: Date, leaseUntil: Date, limit: number, leaseToken: string) =>
      leases.claim({ now, leaseUntil, limit, token: leaseToken }).pipe(
        Effect.map((rows): ReadonlyArray<ClaimedNotification> =>
          (rows as ReadonlyArray<Omit<ClaimedNotification, "leaseToken">>).map((row) => ({ ...row, leaseToken }))
        ),
        Effect.orDie
      )

    /** Records what came of attempts; one whose lease is no longer its own is left alone. */
    const record = (outcomes: ReadonlyArray<NotificationOutcome>) =>
      Effect.forEach(
        outcomes,
        (outcome) => sql`
          UPDATE gocardless_sandbox_webhooks SET
            attempts = attempts + 1,
            next_attempt_at = ${outcome.nextAttemptAt},
            delivered_at = ${outcome.deliveredAt},
            last_error = ${outcome.error},
            ${leases.release}
          WHERE id = ${outcome.id} AND lease_token = ${outcome.leaseToken}`,
        { discard: true }
      ).pipe(Effect.orDie)

    return { claim, record } as const
  })

export type NotificationOutbox = Effect.Effect.Success<ReturnType<typeof makeNotificationOutbox>>
