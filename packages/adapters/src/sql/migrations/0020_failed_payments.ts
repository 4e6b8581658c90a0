import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A billing invoice's failed payment is collected again by the billing run: failed_at is when
  // it last failed (the run retries it at least 3 days later), payment_retries how many retries
  // were asked of the provider (at most 3). An invoice already Failed counts as failed now.
  yield* sql`
    ALTER TABLE billing_invoices
      ADD COLUMN failed_at timestamptz,
      ADD COLUMN payment_retries integer NOT NULL DEFAULT 0`
  yield* sql`UPDATE billing_invoices SET failed_at = now() WHERE payment_status = 'Failed'`
  yield* sql`
    CREATE INDEX billing_invoices_failed_idx ON billing_invoices (failed_at, seq) WHERE payment_status = 'Failed'`
})
