import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** A sandbox resource as the API shows it, plus `_internal` state the API never shows. */
export type Resource = Record<string, unknown> & { readonly id: string; readonly _internal?: Record<string, unknown> }

export type Kind = "redirect_flows" | "mandates" | "customers" | "customer_bank_accounts" | "payments"

/** The resource as GoCardless would answer it. */
export const publicView = ({ _internal, ...shown }: Resource) => shown

/** The sandbox's resources in the service's database; jsonb bodies go as JSON text. */
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

  /**
   * Claims an idempotency key for a create: none when the key is new (and now taken by
   * `resourceId`), else the id of the resource an earlier request with the key made.
   */
  const claimKey = (kind: Kind, key: string, resourceId: string) =>
    sql<{ readonly resourceId: string }>`
      INSERT INTO gocardless_sandbox_idempotency_keys ${sql.insert({ kind, key, resourceId })}
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

  return { load, insert, save, paymentsOfMandate, claimKey, transaction } as const
})
