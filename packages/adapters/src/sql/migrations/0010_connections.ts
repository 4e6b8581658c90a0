import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // A connection spans two tenants, so it is keyed by its id alone; every query names the tenant
  // looking at it (as initiator, receiver, or a tenant it was sent to by email). Contact codes are
  // kept with the ids: they never change. email is stored lower case, as every address is.
  yield* sql`
    CREATE TABLE connections (
      id uuid NOT NULL,
      direction text NOT NULL CHECK (direction IN ('In', 'Out')),
      status text NOT NULL CHECK (status IN ('Pending', 'Connected', 'Rejected')),
      initiator_tenant_id uuid NOT NULL,
      initiator_contact_id uuid NOT NULL,
      initiator_contact_code text COLLATE "C" NOT NULL,
      receiver_tenant_id uuid,
      receiver_contact_id uuid,
      receiver_contact_code text COLLATE "C",
      email text COLLATE "C" NOT NULL,
      shared_name text NOT NULL,
      shared_email text,
      shared_cis_details jsonb,
      created_at timestamptz NOT NULL,
      connected_at timestamptz,
      rejected_at timestamptz,
      CONSTRAINT connections_pkey PRIMARY KEY (id),
      CONSTRAINT connections_initiator_fkey FOREIGN KEY (initiator_tenant_id, initiator_contact_id)
        REFERENCES contacts (tenant_id, id),
      CONSTRAINT connections_receiver_fkey FOREIGN KEY (receiver_tenant_id, receiver_contact_id)
        REFERENCES contacts (tenant_id, id)
    )`
  yield* sql`CREATE INDEX connections_initiator_idx ON connections (initiator_tenant_id)`
  yield* sql`CREATE INDEX connections_receiver_idx ON connections (receiver_tenant_id) WHERE receiver_tenant_id IS NOT NULL`
  // What a tenant is sent: Pending ones by address, newest first.
  yield* sql`CREATE INDEX connections_pending_idx ON connections (email, created_at DESC) WHERE status = 'Pending'`

  // Each tenant's side of a connection: its contact for the other party. The key makes a contact
  // the side of at most one connection per direction, whichever side it is on, so racing
  // creates (or accepts) give exactly one.
  yield* sql`
    CREATE TABLE connection_sides (
      tenant_id uuid NOT NULL,
      contact_id uuid NOT NULL,
      direction text NOT NULL,
      connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
      CONSTRAINT connection_sides_pkey PRIMARY KEY (tenant_id, contact_id, direction),
      CONSTRAINT connection_sides_contact_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id)
    )`
  yield* sql`CREATE INDEX connection_sides_connection_idx ON connection_sides (connection_id)`
})
