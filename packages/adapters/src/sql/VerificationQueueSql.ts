import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { CisScheme } from "@cisbook/core/cis/CisScheme"
import { ContactId, TenantId } from "@cisbook/core/Ids"
import { IdGenerator } from "@cisbook/core/ports/IdGenerator"
import { type QueuedVerification, VerificationQueue } from "@cisbook/core/ports/VerificationQueue"
import type { VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"

/** The request as it is stored: the contractor's UTR and scheme, and the subcontractor's identity, in their wire form. */
const StoredRequest = Schema.Struct({
  contractor: Schema.Struct({ utr: Schema.NullOr(Schema.String), scheme: CisScheme }),
  subcontractor: CisDetails
})
const encodeRequest = Schema.encodeSync(StoredRequest)

const QueuedRow = Schema.Struct({
  tenantId: TenantId,
  contactId: ContactId,
  contactCode: Schema.String,
  request: StoredRequest,
  requestedAt: Schema.DateFromSelf
})
const ClaimedRow = Schema.Struct({ ...QueuedRow.fields, attempts: Schema.Number })
const decodeQueued = Schema.decodeUnknown(Schema.Array(QueuedRow))
const decodeClaimed = Schema.decodeUnknown(Schema.Array(ClaimedRow))

const queued = (row: typeof QueuedRow.Type): QueuedVerification => ({
  tenantId: row.tenantId,
  contactId: row.contactId,
  contactCode: row.contactCode,
  request: row.request satisfies VerificationRequest,
  requestedAt: row.requestedAt
})

export const VerificationQueueSql = Layer.effect(
  VerificationQueue,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* IdGenerator
    return VerificationQueue.of({
      queue: (v) =>
        sql`
          INSERT INTO verification_requests
            (tenant_id, contact_id, contact_code, request, requested_at, due_at, attempts)
          VALUES (${v.tenantId}, ${v.contactId}, ${v.contactCode}, ${JSON.stringify(encodeRequest(v.request))}::jsonb,
            ${v.requestedAt}, ${v.requestedAt}, 0)
          ON CONFLICT ON CONSTRAINT verification_requests_pkey DO UPDATE SET
            contact_code = excluded.contact_code, request = excluded.request, requested_at = excluded.requested_at,
            due_at = excluded.due_at, attempts = 0, lease_token = NULL, leased_until = NULL, last_error = NULL`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      claimDue: (now, leaseUntil, limit) =>
        Effect.gen(function* () {
          const token = yield* ids.uuid
          // SKIP LOCKED: a row another worker is leasing right now is passed over, not waited for.
          const rows = yield* sql`
            WITH due AS (
              SELECT tenant_id, contact_id FROM verification_requests
              WHERE due_at <= ${now} AND (leased_until IS NULL OR leased_until <= ${now})
              ORDER BY due_at
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED
            ),
            claimed AS (
              UPDATE verification_requests v
              SET lease_token = ${token}, leased_until = ${leaseUntil}, attempts = v.attempts + 1
              FROM due
              WHERE v.tenant_id = due.tenant_id AND v.contact_id = due.contact_id
              RETURNING v.tenant_id, v.contact_id, v.contact_code, v.request, v.requested_at, v.attempts, v.due_at
            )
            SELECT tenant_id, contact_id, contact_code, request, requested_at, attempts FROM claimed ORDER BY due_at`
          const claimed = yield* decodeClaimed(rows)
          return claimed.map((row) => ({ ...queued(row), attempts: row.attempts, leaseToken: token }))
        }).pipe(Effect.orDie),
      complete: (claimed) =>
        sql`
          DELETE FROM verification_requests
          WHERE tenant_id = ${claimed.tenantId} AND contact_id = ${claimed.contactId}
            AND lease_token = ${claimed.leaseToken}
          RETURNING contact_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      postpone: (claimed, at, error) =>
        sql`
          UPDATE verification_requests
          SET due_at = ${at}, lease_token = NULL, leased_until = NULL, last_error = ${error}
          WHERE tenant_id = ${claimed.tenantId} AND contact_id = ${claimed.contactId}
            AND lease_token = ${claimed.leaseToken}`.pipe(Effect.asVoid, Effect.orDie),
      find: (tenantId, contactId) =>
        sql`
          SELECT tenant_id, contact_id, contact_code, request, requested_at FROM verification_requests
          WHERE tenant_id = ${tenantId} AND contact_id = ${contactId}`.pipe(
          Effect.flatMap(decodeQueued),
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), queued)),
          Effect.orDie
        )
    })
  })
)
