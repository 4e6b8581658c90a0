import { BillingAddress } from "@cisbook/core/billing/mandates/BillingAddress"
import { BillingProfileRepo } from "@cisbook/core/billing/mandates/BillingProfileRepo"
import { UserId } from "@cisbook/core/Ids"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"

export const BillingProfileRepoSql = Layer.effect(
  BillingProfileRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const addressColumns = sql.literal(
      "company_name, billing_email, address_line1, address_line2, address_line3, postcode, country"
    )
    const find = SqlSchema.findOne({
      Request: Schema.String,
      Result: BillingAddress,
      execute: (userId) => sql`SELECT ${addressColumns} FROM billing_profiles WHERE user_id = ${userId}`
    })
    const findOf = SqlSchema.findAll({
      Request: Schema.Array(Schema.String),
      Result: Schema.Struct({ userId: UserId, ...BillingAddress.fields }),
      execute: (userIds) =>
        sql`SELECT user_id, ${addressColumns} FROM billing_profiles WHERE user_id IN ${sql.in(userIds)}`
    })
    return BillingProfileRepo.of({
      get: (userId) => find(userId).pipe(Effect.orDie),
      getOf: (userIds) =>
        userIds.length === 0
          ? Effect.succeed(new Map())
          : findOf(userIds).pipe(
              Effect.map(
                (rows) => new Map(rows.map(({ userId, ...address }) => [userId, new BillingAddress(address, true)]))
              ),
              Effect.orDie
            ),
      put: (userId, address, at) =>
        sql`
          INSERT INTO billing_profiles ${sql.insert({
            userId,
            companyName: address.companyName,
            billingEmail: address.billingEmail,
            addressLine1: address.addressLine1,
            addressLine2: address.addressLine2,
            addressLine3: address.addressLine3,
            postcode: address.postcode,
            country: address.country,
            updatedAt: at
          })}
          ON CONFLICT (user_id) DO UPDATE SET
            company_name = excluded.company_name, billing_email = excluded.billing_email,
            address_line1 = excluded.address_line1, address_line2 = excluded.address_line2,
            address_line3 = excluded.address_line3, postcode = excluded.postcode,
            country = excluded.country, updated_at = excluded.updated_at`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
