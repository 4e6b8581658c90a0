import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // Where HMRC answers a sent return (the acknowledgement's ResponseEndPoint and PollInterval),
  // recorded with its correlation id so that any filer, in any process, polls and deletes there;
  // the IRmark sent, and HMRC's receipt text and when it came, the proof of filing an accepted
  // return keeps. A return sent before endpoints were kept has a correlation id and no endpoint.
  yield* sql`
    ALTER TABLE monthly_returns
      ADD COLUMN response_endpoint text,
      ADD COLUMN poll_interval_seconds integer,
      ADD COLUMN irmark text,
      ADD COLUMN receipt_message text,
      ADD COLUMN receipt_at timestamptz`
  yield* sql`
    ALTER TABLE monthly_returns ADD CONSTRAINT monthly_returns_endpoint_check
      CHECK (response_endpoint IS NULL OR correlation_id IS NOT NULL)`
  // The same for a verification request: sent once, then polled at its endpoint for as long as
  // HMRC takes; sent_at is when its acknowledgement was recorded.
  yield* sql`
    ALTER TABLE verification_requests
      ADD COLUMN correlation_id text,
      ADD COLUMN response_endpoint text,
      ADD COLUMN poll_interval_seconds integer,
      ADD COLUMN sent_at timestamptz`
  yield* sql`
    ALTER TABLE verification_requests ADD CONSTRAINT verification_requests_sent_check
      CHECK ((correlation_id IS NULL) = (sent_at IS NULL) AND (correlation_id IS NULL) = (response_endpoint IS NULL))`
})
