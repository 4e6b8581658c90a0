import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // When a billing invoice's payment status was last read from GoCardless by a listing, or moved
  // by its event: a listing within a minute of it answers the stored status without asking again.
  // Null (never read) for the invoices there are: the next listing asks.
  yield* sql`ALTER TABLE billing_invoices ADD COLUMN payment_read_at timestamptz`
})
