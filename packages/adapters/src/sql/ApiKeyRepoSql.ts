import { ApiKey } from "@cisbook/core/apikeys/ApiKey"
import { Email } from "@cisbook/core/Email"
import { ApiKeyRepo } from "@cisbook/core/apikeys/ApiKeyRepo"
import { User } from "@cisbook/core/users/User"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { REVOCATION_CHANNEL } from "./RevocationChannel.js"

const KeyWithOwnerRow = Schema.Struct({
  ...ApiKey.fields,
  ownerEmail: Email,
  ownerName: Schema.String,
  ownerSubject: Schema.NullOr(Schema.String),
  ownerCreatedAt: Schema.DateFromSelf
})

export const ApiKeyRepoSql = Layer.effect(
  ApiKeyRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const listByUser = SqlSchema.findAll({
      Request: Schema.String,
      Result: ApiKey,
      execute: (userId) => sql`
        SELECT id, user_id, name, prefix, created_at, last_used_at FROM api_keys
        WHERE user_id = ${userId} AND revoked_at IS NULL
        ORDER BY created_at DESC, id DESC`
    })
    const findByHash = SqlSchema.findOne({
      Request: Schema.String,
      Result: KeyWithOwnerRow,
      execute: (hash) => sql`
        SELECT k.id, k.user_id, k.name, k.prefix, k.created_at, k.last_used_at,
          u.email AS owner_email, u.name AS owner_name, u.subject AS owner_subject, u.created_at AS owner_created_at
        FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL`
    })

    return ApiKeyRepo.of({
      insert: (key, hash) =>
        sql`INSERT INTO api_keys ${sql.insert({
          id: key.id,
          userId: key.userId,
          name: key.name,
          prefix: key.prefix,
          keyHash: hash,
          createdAt: key.createdAt,
          lastUsedAt: key.lastUsedAt
        })}`.pipe(Effect.asVoid, Effect.orDie),
      listByUser: (userId) => listByUser(userId).pipe(Effect.orDie),
      // One statement: the notice is queued in the revocation's own transaction and sent when it commits.
      revoke: (userId, id, at) =>
        sql`
          WITH revoked AS (
            UPDATE api_keys SET revoked_at = ${at}
            WHERE id = ${id} AND user_id = ${userId} AND revoked_at IS NULL
            RETURNING id
          )
          SELECT pg_notify(${REVOCATION_CHANNEL}, id::text) FROM revoked`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      findByHash: (hash) =>
        findByHash(hash).pipe(
          Effect.map(
            Option.map(({ ownerCreatedAt, ownerEmail, ownerName, ownerSubject, ...key }) => ({
              key: new ApiKey(key, true),
              user: new User(
                {
                  id: key.userId,
                  email: ownerEmail,
                  name: ownerName,
                  subject: ownerSubject,
                  createdAt: ownerCreatedAt
                },
                true
              )
            }))
          ),
          Effect.orDie
        ),
      touch: (id, at) =>
        sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
