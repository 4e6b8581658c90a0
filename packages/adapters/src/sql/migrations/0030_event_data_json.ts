import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // An event's data is written once and read back whole, to be delivered as it was written; it is
  // never queried inside. As json (checked, kept as its text) rather than jsonb (parsed into a
  // binary form) it costs PostgreSQL about half as much to load: an import of 10,000 contacts
  // writes 20,000 events. Receivers see the members in the order the service wrote them.
  yield* sql`ALTER TABLE events ALTER COLUMN data TYPE json USING data::json`
})
