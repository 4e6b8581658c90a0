import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // A bearer token without an email claim signs in a user without an address. The unique
  // constraint stays: PostgreSQL lets any number of rows hold NULL.
  yield* sql`ALTER TABLE users ALTER COLUMN email DROP NOT NULL`

  yield* sql`
    CREATE TABLE billing_profiles (
      user_id uuid NOT NULL REFERENCES users (id),
      company_name text NOT NULL,
      billing_email text NOT NULL,
      address_line1 text NOT NULL,
      address_line2 text,
      address_line3 text,
      postcode text NOT NULL,
      country text NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT billing_profiles_pkey PRIMARY KEY (user_id)
    )`

  // One row per mandate setup of a user: a redirect flow first (redirect_flow_id is set once the
  // provider answered), then the provider's mandate (reference). A user holds at most one live
  // (InProgress or Active) row; a flow past expires_at is marked Expired before a new setup.
  yield* sql`
    CREATE TABLE mandates (
      user_id uuid NOT NULL REFERENCES users (id),
      id uuid NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      status text NOT NULL CHECK (status IN ('InProgress', 'Active', 'Cancelled', 'Failed', 'Expired')),
      session_token text NOT NULL,
      redirect_flow_id text,
      redirect_url text,
      reference text,
      account_holder_name text,
      bank_name text,
      account_number_ending text,
      next_possible_charge_date date,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      completed_at timestamptz,
      CONSTRAINT mandates_pkey PRIMARY KEY (user_id, id),
      CONSTRAINT mandates_redirect_flow_key UNIQUE (redirect_flow_id)
    )`
  yield* sql`
    CREATE UNIQUE INDEX mandates_one_live_per_user ON mandates (user_id)
    WHERE status IN ('InProgress', 'Active')`

  // The GoCardless-compatible sandbox's own state: its resources as the API answers them, and
  // the idempotency keys of its creates.
  yield* sql`
    CREATE TABLE gocardless_sandbox_resources (
      id text NOT NULL,
      kind text NOT NULL,
      body jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT gocardless_sandbox_resources_pkey PRIMARY KEY (id)
    )`
  yield* sql`
    CREATE TABLE gocardless_sandbox_idempotency_keys (
      kind text NOT NULL,
      key text NOT NULL,
      resource_id text NOT NULL,
      CONSTRAINT gocardless_sandbox_idempotency_keys_pkey PRIMARY KEY (kind, key)
    )`
})
