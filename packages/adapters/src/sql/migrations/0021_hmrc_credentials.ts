import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // Each tenant's Government Gateway credentials. The password is kept only sealed (AES-256-GCM
  // under CREDENTIALS_KEY, bound to the tenant): a dump of the database alone never reveals one.
  // updated_at identifies the credentials set, so that HMRC's answer to a message sent with old
  // ones never marks new ones.
  yield* sql`
    CREATE TABLE hmrc_credentials (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      gateway_user_id text NOT NULL,
      password_sealed text NOT NULL,
      filer text NOT NULL CHECK (filer IN ('Contractor', 'Agent')),
      status text NOT NULL CHECK (status IN ('Unchecked', 'Accepted', 'Refused')),
      updated_at timestamptz NOT NULL,
      CONSTRAINT hmrc_credentials_pkey PRIMARY KEY (tenant_id)
    )`

  // A Held return was not filed (HMRC refused the tenant's credentials) and is filed again when
  // they are replaced: not due meanwhile, and still the tax month's live return.
  yield* sql`ALTER TABLE monthly_returns ADD COLUMN held_reason text`
  yield* sql`ALTER TABLE monthly_returns DROP CONSTRAINT monthly_returns_status_check`
  yield* sql`
    ALTER TABLE monthly_returns ADD CONSTRAINT monthly_returns_status_check
      CHECK (status IN ('Submitted', 'Accepted', 'Rejected', 'Held'))`
  yield* sql`ALTER TABLE monthly_returns DROP CONSTRAINT monthly_returns_outcome_check`
  yield* sql`
    ALTER TABLE monthly_returns ADD CONSTRAINT monthly_returns_outcome_check CHECK (
      (status = 'Submitted' AND accepted_at IS NULL AND rejection_reason IS NULL AND held_reason IS NULL
        AND next_attempt_at IS NOT NULL)
      OR (status = 'Accepted' AND accepted_at IS NOT NULL AND rejection_reason IS NULL AND held_reason IS NULL)
      OR (status = 'Rejected' AND accepted_at IS NULL AND rejection_reason IS NOT NULL AND held_reason IS NULL)
      OR (status = 'Held' AND accepted_at IS NULL AND rejection_reason IS NULL AND held_reason IS NOT NULL
        AND next_attempt_at IS NULL)
    )`
  yield* sql`DROP INDEX monthly_returns_period_key`
  yield* sql`
    CREATE UNIQUE INDEX monthly_returns_period_key ON monthly_returns (tenant_id, period_end)
      WHERE status IN ('Submitted', 'Accepted', 'Held')`
  // Replacing a tenant's credentials finds its held returns.
  yield* sql`CREATE INDEX monthly_returns_held_idx ON monthly_returns (tenant_id) WHERE status = 'Held'`

  // A held verification request waits for the tenant's credentials to be replaced: never due
  // meanwhile (the workers' claim passes it over).
  yield* sql`ALTER TABLE verification_requests ADD COLUMN held_reason text`
  yield* sql`
    CREATE INDEX verification_requests_held_idx ON verification_requests (tenant_id)
      WHERE held_reason IS NOT NULL`
})
