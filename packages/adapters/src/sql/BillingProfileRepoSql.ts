import { BillingAddress } from "@cisbook/core/billing/mandates/BillingAddress"
import { BillingProfileRepo } from "@cisbook/core/billing/mandates/BillingProfileRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"

export const BillingProfileRepoSql = Layer.effect(
  BillingProfileRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const find = SqlSchema.findOne({
      Request: Schema.String,
      Result: BillingAddress,
      execute: (userId) => sql`
        SELECT company_name, billing_email, address_line1, address_line2, address_line3, postcode, country
        FROM billing_profiles WHERE user_id = ${userId}`
    })
    return BillingProfileRepo.of({
      get: (userId) => find(userId).pipe(Effect.orDie),
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
