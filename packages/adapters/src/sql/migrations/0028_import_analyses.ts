import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // The analyses of contact import files, kept so that importing the file just analysed reuses
  // them instead of reading and checking every row again. An analysis is the file's (by the
  // SHA-256 of its bytes) for one tenant, as the analyser of one version judged it on one day
  // (latest_verification_date: a verification may be dated up to a day ahead). row_count is
  // null until every row is written: an analysis cut short is never reused. Kept a day.
  yield* sql`
    CREATE TABLE contact_import_analyses (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      id uuid NOT NULL,
      file_digest text COLLATE "C" NOT NULL,
      analyser_version integer NOT NULL,
      latest_verification_date date NOT NULL,
      row_count integer,
      created_at timestamptz NOT NULL,
      CONSTRAINT contact_import_analyses_pkey PRIMARY KEY (tenant_id, id)
    )`
  yield* sql`
    CREATE INDEX contact_import_analyses_file_idx
    ON contact_import_analyses (tenant_id, file_digest, created_at)`

  // The analysed rows, a batch of rows at a time, as the JSON array of the batch's rows (read
  // back whole, never queried inside).
  yield* sql`
    CREATE TABLE contact_import_analysis_batches (
      tenant_id uuid NOT NULL,
      analysis_id uuid NOT NULL,
      batch integer NOT NULL,
      rows_json text NOT NULL,
      CONSTRAINT contact_import_analysis_batches_pkey PRIMARY KEY (tenant_id, analysis_id, batch),
      CONSTRAINT contact_import_analysis_batches_analysis_fkey FOREIGN KEY (tenant_id, analysis_id)
        REFERENCES contact_import_analyses (tenant_id, id) ON DELETE CASCADE
    )`
})
