import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // What a sending records besides where HMRC answers it: when the credentials it went with were
  // set (HMRC's 1046 is about those, not whatever the tenant has since), and whether it went as a
  // test (GovTalk's GatewayTest: HMRC answers and files nothing, so the return is never billed,
  // mails no statements and counts as filed nowhere). unknown_answer keeps what HMRC's data
  // request said when a poll last found the correlation id unknown (2000): a second such answer
  // holds the return. held_for says what holds a Held return: its credentials (released when they
  // or the CIS scheme registration change) or an unknown answer (released by a person).
  yield* sql`
    ALTER TABLE monthly_returns
      ADD COLUMN credentials_set_at timestamptz,
      ADD COLUMN gateway_test boolean NOT NULL DEFAULT false,
      ADD COLUMN unknown_answer text CHECK (unknown_answer IN ('RecordSeen', 'Resubmitted')),
      ADD COLUMN held_for text CHECK (held_for IN ('Credentials', 'UnknownAnswer')),
      ADD COLUMN receipt_irmark_verified boolean`
  yield* sql`UPDATE monthly_returns SET held_for = 'Credentials' WHERE status = 'Held'`
  // A receipt kept before it was checked: verified when its text names the IRmark sent.
  yield* sql`
    UPDATE monthly_returns SET receipt_irmark_verified = (irmark IS NOT NULL AND position(irmark IN receipt_message) > 0)
    WHERE receipt_message IS NOT NULL`
  yield* sql`
    ALTER TABLE monthly_returns ADD CONSTRAINT monthly_returns_held_check
      CHECK ((status = 'Held') = (held_for IS NOT NULL))`

  yield* sql`
    ALTER TABLE verification_requests
      ADD COLUMN credentials_set_at timestamptz,
      ADD COLUMN unknown_answer text CHECK (unknown_answer IN ('RecordSeen', 'Resubmitted')),
      ADD COLUMN held_for text CHECK (held_for IN ('Credentials', 'UnknownAnswer'))`
  yield* sql`UPDATE verification_requests SET held_for = 'Credentials' WHERE held_reason IS NOT NULL`
  yield* sql`
    ALTER TABLE verification_requests ADD CONSTRAINT verification_requests_held_check
      CHECK ((held_reason IS NULL) = (held_for IS NULL))`
})
