import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The CIS300's declarations, as the contractor made them when it filed, by whom (the API key's
  // id, else the user's) and when. The returns filed before were declared on the contractor's
  // behalf: the service wrote all three `yes` on a return with lines and InformationCorrect alone
  // on a nil return, unasked. They are recorded as what was sent, by nobody (declared_by NULL),
  // when the return was filed.
  yield* sql`
    ALTER TABLE monthly_returns ADD COLUMN declared_employment_status boolean,
      ADD COLUMN declared_subcontractors_verified boolean, ADD COLUMN declared_information_correct boolean,
      ADD COLUMN declared_by text, ADD COLUMN declared_at timestamptz`
  yield* sql`
    UPDATE monthly_returns SET declared_employment_status = NOT nil_return,
      declared_subcontractors_verified = NOT nil_return, declared_information_correct = true,
      declared_at = submitted_at`
  yield* sql`
    ALTER TABLE monthly_returns ALTER COLUMN declared_employment_status SET NOT NULL,
      ALTER COLUMN declared_subcontractors_verified SET NOT NULL,
      ALTER COLUMN declared_information_correct SET NOT NULL, ALTER COLUMN declared_at SET NOT NULL,
      ADD CONSTRAINT monthly_returns_declarations_check CHECK (
        declared_information_correct AND (nil_return OR (declared_employment_status AND declared_subcontractors_verified))
      )`

  // When a Held return was last released (sent again): it counts as filed from then on. The
  // returns released before were not recorded as such, and count from when they were filed.
  yield* sql`ALTER TABLE monthly_returns ADD COLUMN released_at timestamptz`

  // The return's total deducted (pence), kept beside its lines: a month's penalty reads it
  // without reading the lines.
  yield* sql`ALTER TABLE monthly_returns ADD COLUMN deducted bigint`
  yield* sql`
    UPDATE monthly_returns SET deducted = (
      SELECT COALESCE(sum((line ->> 'deducted')::bigint), 0) FROM jsonb_array_elements(lines) AS line
    )`
  yield* sql`ALTER TABLE monthly_returns ALTER COLUMN deducted SET NOT NULL`

  // The date the contractor's CIS registration with HMRC began: returns are due from its tax
  // month on. A registration set before was not dated: it counts from the first tax month the
  // tenant filed a return for, or from today when it filed none (as a registration first set now).
  yield* sql`ALTER TABLE tenant_settings ADD COLUMN registered_from date`
  yield* sql`
    UPDATE tenant_settings s SET registered_from = LEAST(
      current_date,
      (SELECT min(r.period_end) - interval '1 month' + interval '1 day' FROM monthly_returns r
        WHERE r.tenant_id = s.tenant_id)
    )
    WHERE s.employer_reference IS NOT NULL`
  yield* sql`
    ALTER TABLE tenant_settings ADD CONSTRAINT tenant_settings_registered_from_check
      CHECK ((registered_from IS NULL) = (employer_reference IS NULL))`
})
