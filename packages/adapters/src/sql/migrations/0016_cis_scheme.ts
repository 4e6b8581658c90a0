import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** What a verification queued before schemes were registered ends as: it cannot go to HMRC without one. */
const SCHEME_NEEDED_MESSAGE =
  "Set the contractor's CIS scheme registration (employer PAYE reference and Accounts Office reference), then verify the subcontractor again."

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The PAYE scheme a contractor files under: both references or neither.
  yield* sql`
    ALTER TABLE tenant_settings ADD COLUMN employer_reference text, ADD COLUMN accounts_office_reference text,
      ADD CONSTRAINT tenant_settings_cis_scheme_check
        CHECK ((employer_reference IS NULL) = (accounts_office_reference IS NULL))`

  // A nil return has no lines (and only a nil return may say the contractor is inactive); any
  // other has 1–1,000.
  yield* sql`
    ALTER TABLE monthly_returns ADD COLUMN nil_return boolean NOT NULL DEFAULT false,
      ADD COLUMN inactive boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE monthly_returns DROP CONSTRAINT monthly_returns_lines_check`
  yield* sql`
    ALTER TABLE monthly_returns ADD CONSTRAINT monthly_returns_lines_check CHECK (
      jsonb_typeof(lines) = 'array' AND CASE WHEN nil_return THEN jsonb_array_length(lines) = 0
        ELSE jsonb_array_length(lines) BETWEEN 1 AND 1000 END
    ),
    ADD CONSTRAINT monthly_returns_inactive_check CHECK (nil_return OR NOT inactive)`

  // A request waiting for the tax authority now carries the contractor's scheme, which no tenant
  // has yet: each ends as an error the user can act on, as one started without a scheme does.
  yield* sql`
    UPDATE contacts c SET verification_status = 'Error', verification_number = NULL, tax_treatment = NULL,
      verified_at = NULL, verification_source = 'Hmrc', verification_message = ${SCHEME_NEEDED_MESSAGE},
      updated_at = now()
    FROM verification_requests v
    WHERE c.tenant_id = v.tenant_id AND c.id = v.contact_id`
  yield* sql`DELETE FROM verification_requests`
})
