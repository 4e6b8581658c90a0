import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The outbox of requests to the tax authority: at most one waiting per contact, holding the
  // identities as they were when asked. A worker leases a due request (lease_token,
  // leased_until) while it asks; a lease that runs out unsettled makes it due again. A deleted
  // contact takes its request with it.
  yield* sql`
    CREATE TABLE verification_requests (
      tenant_id uuid NOT NULL,
      contact_id uuid NOT NULL,
      contact_code text COLLATE "C" NOT NULL,
      request jsonb NOT NULL,
      requested_at timestamptz NOT NULL,
      due_at timestamptz NOT NULL,
      attempts integer NOT NULL,
      lease_token uuid,
      leased_until timestamptz,
      last_error text,
      CONSTRAINT verification_requests_pkey PRIMARY KEY (tenant_id, contact_id),
      CONSTRAINT verification_requests_contact_fkey FOREIGN KEY (tenant_id, contact_id)
        REFERENCES contacts (tenant_id, id) ON DELETE CASCADE
    )`
  // The workers' queue, across tenants, by when each request is due.
  yield* sql`CREATE INDEX verification_requests_due_idx ON verification_requests (due_at)`
})
