import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`

  yield* sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY,
      email text NOT NULL CONSTRAINT users_email_key UNIQUE,
      name text NOT NULL,
      subject text CONSTRAINT users_subject_key UNIQUE,
      created_at timestamptz NOT NULL
    )`

  yield* sql`
    CREATE TABLE tenants (
      id uuid PRIMARY KEY,
      code text NOT NULL CONSTRAINT tenants_code_key UNIQUE,
      name text NOT NULL,
      email text,
      created_at timestamptz NOT NULL
    )`

  yield* sql`
    CREATE TABLE memberships (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      user_id uuid NOT NULL REFERENCES users (id),
      role text NOT NULL CHECK (role IN ('Owner', 'Member')),
      added_at timestamptz NOT NULL,
      CONSTRAINT memberships_pkey PRIMARY KEY (tenant_id, user_id)
    )`
  yield* sql`CREATE INDEX memberships_user_id_idx ON memberships (user_id)`

  yield* sql`
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id),
      name text NOT NULL,
      prefix text NOT NULL,
      key_hash text NOT NULL CONSTRAINT api_keys_key_hash_key UNIQUE,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX api_keys_user_id_idx ON api_keys (user_id, created_at DESC, id DESC) WHERE revoked_at IS NULL`
})
