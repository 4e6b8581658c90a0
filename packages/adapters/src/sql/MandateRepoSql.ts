import { Mandate } from "@cisbook/core/billing/mandates/Mandate"
import { MandateRepo } from "@cisbook/core/billing/mandates/MandateRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { uniqueWrite } from "./UniqueWrite.js"

const columns = `id, user_id, status, session_token, redirect_flow_id, redirect_url, reference, account_holder_name,
  bank_name, account_number_ending, next_possible_charge_date::text AS next_possible_charge_date, created_at,
  expires_at, completed_at`

const mutable = (m: Mandate) => ({
  status: m.status,
  redirectFlowId: m.redirectFlowId,
  redirectUrl: m.redirectUrl,
  reference: m.reference,
  accountHolderName: m.accountHolderName,
  bankName: m.bankName,
  accountNumberEnding: m.accountNumberEnding,
  nextPossibleChargeDate: m.nextPossibleChargeDate,
  expiresAt: m.expiresAt,
  completedAt: m.completedAt
})

export const MandateRepoSql = Layer.effect(
  MandateRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const liveWrite = uniqueWrite(sql, { mandates_one_live_per_user: "live" })
    const select = sql.literal(columns)
    const latest = SqlSchema.findOne({
      Request: Schema.String,
      Result: Mandate,
      execute: (userId) => sql`SELECT ${select} FROM mandates WHERE user_id = ${userId} ORDER BY seq DESC LIMIT 1`
    })
    const live = SqlSchema.findOne({
      Request: Schema.String,
      Result: Mandate,
      execute: (userId) =>
        sql`SELECT ${select} FROM mandates WHERE user_id = ${userId} AND status IN ('InProgress', 'Active')`
    })
    const liveOf = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: Mandate,
      execute: (userIds) =>
        sql`SELECT ${select} FROM mandates WHERE user_id IN ${sql.in(userIds)} AND status IN ('InProgress', 'Active')`
    })
    const byFlow = SqlSchema.findOne({
      Request: Schema.Struct({ userId: Schema.String, redirectFlowId: Schema.String }),
      Result: Mandate,
      execute: ({ redirectFlowId, userId }) =>
        sql`SELECT ${select} FROM mandates WHERE user_id = ${userId} AND redirect_flow_id = ${redirectFlowId}`
    })

    const bySetup = SqlSchema.findOne({
      Request: Schema.String,
      Result: Mandate,
      execute: (redirectFlowId) => sql`SELECT ${select} FROM mandates WHERE redirect_flow_id = ${redirectFlowId}`
    })

    const byReference = SqlSchema.findOne({
      Request: Schema.String,
      Result: Mandate,
      execute: (reference) =>
        sql`SELECT ${select} FROM mandates WHERE reference = ${reference} ORDER BY seq DESC LIMIT 1`
    })

    return MandateRepo.of({
      reserve: (m, now) =>
        sql`
          UPDATE mandates SET status = 'Expired'
          WHERE user_id = ${m.userId} AND status = 'InProgress' AND reference IS NULL AND expires_at <= ${now}
          RETURNING redirect_flow_id`.pipe(
          Effect.zipLeft(
            sql`INSERT INTO mandates ${sql.insert({
              userId: m.userId,
              id: m.id,
              sessionToken: m.sessionToken,
              createdAt: m.createdAt,
              ...mutable(m)
            })}`
          ),
          sql.withTransaction,
          Effect.map((rows) =>
            rows.flatMap((row) => (typeof row["redirectFlowId"] === "string" ? [row["redirectFlowId"]] : []))
          ),
          liveWrite
        ),
      replace: (read, next) =>
        sql`
          UPDATE mandates SET ${sql.update(mutable(next))}
          WHERE user_id = ${read.userId} AND id = ${read.id} AND status = ${read.status}
            AND reference IS NOT DISTINCT FROM ${read.reference}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          liveWrite
        ),
      completeSetup: (m) =>
        sql`
          UPDATE mandates SET ${sql.update(mutable(m))}
          WHERE user_id = ${m.userId} AND id = ${m.id} AND reference IS NULL
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          liveWrite
        ),
      remove: (userId, id) =>
        sql`DELETE FROM mandates WHERE user_id = ${userId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      latest: (userId) => latest(userId).pipe(Effect.orDie),
      live: (userId) => live(userId).pipe(Effect.orDie),
      liveOf: (userIds) =>
        userIds.length === 0
          ? Effect.succeed(new Map())
          : liveOf(userIds).pipe(
              Effect.map((mandates) => new Map(mandates.map((m) => [m.userId, m]))),
              Effect.orDie
            ),
      findByRedirectFlow: (userId, redirectFlowId) => byFlow({ userId, redirectFlowId }).pipe(Effect.orDie),
      findBySetup: (redirectFlowId) => bySetup(redirectFlowId).pipe(Effect.orDie),
      findByReference: (reference) => byReference(reference).pipe(Effect.orDie),
      moveStatus: (m, from, to) =>
        sql`
          UPDATE mandates SET status = ${to}
          WHERE user_id = ${m.userId} AND id = ${m.id} AND status = ${from}
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          liveWrite
        )
    })
  })
)
