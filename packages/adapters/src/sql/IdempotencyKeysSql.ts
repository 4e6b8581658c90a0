import { IdempotencyKeys, type KeyClaim, type KeyedRequest } from "@cisbook/core/idempotency/IdempotencyKeys"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"

const KeyRow = Schema.Struct({
  fingerprint: Schema.String,
  status: Schema.NullOr(Schema.Number),
  headers: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String })),
  body: Schema.NullOr(Schema.Uint8ArrayFromSelf)
})
const decodeRows = Schema.decodeUnknown(Schema.Array(KeyRow))

const judge = (row: typeof KeyRow.Type, request: KeyedRequest): KeyClaim => {
  if (row.fingerprint !== request.fingerprint) return { _tag: "UsedForAnotherRequest" }
  if (row.status === null) return { _tag: "InProgress" }
  return {
    _tag: "Answered",
    answer: { status: row.status, headers: row.headers ?? {}, body: new Uint8Array(row.body ?? []) }
  }
}

export const IdempotencyKeysSql = Layer.effect(
  IdempotencyKeys,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    // An expired key, or a claim whose process died, is deleted first; then the insert either
    // takes the key or finds the row that holds it (the primary key decides a race).
    const claimOnce = (request: KeyedRequest, at: { now: Date; expiredBefore: Date; leaseUntil: Date }) =>
      Effect.gen(function* () {
        const { claimId, fingerprint, key, scope } = request
        yield* sql`
          DELETE FROM idempotency_keys
          WHERE scope = ${scope} AND key = ${key}
            AND (created_at < ${at.expiredBefore} OR locked_until < ${at.now})`
        const inserted = yield* sql`
          INSERT INTO idempotency_keys ${sql.insert({ scope, key, fingerprint, claimId, createdAt: at.now, lockedUntil: at.leaseUntil })}
          ON CONFLICT (scope, key) DO NOTHING RETURNING key`
        if (inserted.length > 0) return { _tag: "Claimed" } as const
        const rows = yield* sql`
          SELECT fingerprint, status, headers, body FROM idempotency_keys
          WHERE scope = ${scope} AND key = ${key}`.pipe(Effect.flatMap(decodeRows))
        return rows[0] === undefined ? undefined : judge(rows[0], request)
      })

    return IdempotencyKeys.of({
      // The row can vanish between the insert and the select (its claim was released): try again.
      claim: (request, at) =>
        claimOnce(request, at).pipe(
          Effect.repeat({ until: (claim) => claim !== undefined, times: 3 }),
          Effect.map((claim) => claim ?? ({ _tag: "InProgress" } as const)),
          Effect.orDie
        ),
      complete: (request, answer) =>
        sql`
          UPDATE idempotency_keys
          SET status = ${answer.status}, headers = ${JSON.stringify(answer.headers)}::jsonb,
              body = ${answer.body}, locked_until = NULL
          WHERE scope = ${request.scope} AND key = ${request.key} AND claim_id = ${request.claimId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      release: (request) =>
        sql`
          DELETE FROM idempotency_keys
          WHERE scope = ${request.scope} AND key = ${request.key} AND claim_id = ${request.claimId}
            AND status IS NULL`.pipe(Effect.asVoid, Effect.orDie),
      sweep: (expiredBefore) =>
        sql`DELETE FROM idempotency_keys WHERE created_at < ${expiredBefore} RETURNING key`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)
