import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // Every contact code a tenant ever issued, deleted contacts' included: a code is never reused.
  yield* sql`
    CREATE TABLE contact_codes (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      code text COLLATE "C" NOT NULL,
      CONSTRAINT contact_codes_pkey PRIMARY KEY (tenant_id, code)
    )`

  // The CIS identity and verification stay when the subcontractor role goes, so that they come
  // back with it. Sorting is by code point (COLLATE "C"), as on every server whatever its locale.
  yield* sql`
    CREATE TABLE contacts (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      code text COLLATE "C" NOT NULL,
      name text NOT NULL,
      email text COLLATE "C",
      external_id text,
      is_customer boolean NOT NULL,
      is_supplier boolean NOT NULL,
      is_cis_subcontractor boolean NOT NULL,
      vat_registered boolean NOT NULL,
      vat_number text,
      last_sdc_date date,
      cis_type text CHECK (cis_type IN ('SoleTrader', 'Partnership', 'Company', 'Trust')),
      cis_title text,
      cis_first_name text,
      cis_second_name text,
      cis_last_name text,
      cis_trading_name text,
      cis_utr text,
      cis_ni_number text,
      cis_company_number text,
      verification_status text CHECK (verification_status IN ('Verified', 'NotVerified', 'Error')),
      verification_number text,
      tax_treatment text CHECK (tax_treatment IN ('Gross', 'Net', 'Unmatched')),
      verified_at timestamptz,
      verification_source text CHECK (verification_source IN ('Hmrc', 'Manual')),
      verification_message text,
      default_vat_rate text
        CHECK (default_vat_rate IN ('Standard', 'Reduced', 'Zero', 'Exempt', 'NoVat', 'ReverseCharge')),
      payment_terms_days integer,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      -- What a search matches, lower case; the newlines keep a term (which has no whitespace)
      -- from matching across two fields.
      search_text text NOT NULL GENERATED ALWAYS AS (
        lower(name) || E'\\n' || lower(code) || E'\\n' || coalesce(email, '') ||
        CASE WHEN is_cis_subcontractor THEN
          E'\\n' || lower(coalesce(cis_trading_name, '')) || E'\\n' || coalesce(cis_utr, '') ||
          E'\\n' || lower(coalesce(cis_ni_number, '')) || E'\\n' || lower(coalesce(cis_company_number, ''))
        ELSE '' END
      ) STORED,
      CONSTRAINT contacts_pkey PRIMARY KEY (tenant_id, id),
      CONSTRAINT contacts_code_key UNIQUE (tenant_id, code),
      CONSTRAINT contacts_code_fkey FOREIGN KEY (tenant_id, code) REFERENCES contact_codes (tenant_id, code)
    )`

  // One index per sort field, each ending in the code that breaks ties, so that a page is read
  // off an index in either direction (contacts_code_key serves the code order); subcontractors
  // by verification status have their own, as a rare status would otherwise be scanned for.
  yield* sql`CREATE INDEX contacts_name_idx ON contacts (tenant_id, (lower(name) COLLATE "C"), code)`
  yield* sql`CREATE INDEX contacts_email_idx ON contacts (tenant_id, email, code)`
  yield* sql`CREATE INDEX contacts_created_at_idx ON contacts (tenant_id, created_at, code)`
  yield* sql`CREATE INDEX contacts_updated_at_idx ON contacts (tenant_id, updated_at, code)`
  yield* sql`
    CREATE INDEX contacts_subcontractor_name_idx ON contacts
      (tenant_id, verification_status, (lower(name) COLLATE "C"), code) WHERE is_cis_subcontractor`

  // Trigrams under the tenant (btree_gin puts the uuid in the same GIN index): a search reads
  // only its own tenant's candidates, however many other tenants share the table.
  yield* sql`CREATE EXTENSION IF NOT EXISTS btree_gin`
  yield* sql`CREATE INDEX contacts_search_idx ON contacts USING gin (tenant_id, search_text gin_trgm_ops)`

  // How many contacts a tenant has, by the columns the list filters on, so that an unsearched
  // list counts its matches from a few rows instead of every contact. Triggers keep it, per
  // statement, whichever code writes the contacts.
  yield* sql`
    CREATE TABLE contact_counts (
      tenant_id uuid NOT NULL REFERENCES tenants (id),
      is_customer boolean NOT NULL,
      is_supplier boolean NOT NULL,
      is_cis_subcontractor boolean NOT NULL,
      verification_status text NOT NULL,
      contacts bigint NOT NULL,
      CONSTRAINT contact_counts_pkey
        PRIMARY KEY (tenant_id, is_customer, is_supplier, is_cis_subcontractor, verification_status)
    )`
  const groups = "tenant_id, is_customer, is_supplier, is_cis_subcontractor, coalesce(verification_status, '')"
  const counter = (name: string, changes: ReadonlyArray<string>) =>
    sql.unsafe(`
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- In key order, so that concurrent statements lock count rows in one order.
        INSERT INTO contact_counts AS counts
        SELECT ${groups}, sum(change)
        FROM (${changes.join(" UNION ALL ")}) changes
        GROUP BY 1, 2, 3, 4, 5
        HAVING sum(change) <> 0
        ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT ON CONSTRAINT contact_counts_pkey DO UPDATE SET contacts = counts.contacts + excluded.contacts;
        RETURN NULL;
      END $$`)
  const added = "SELECT *, 1 AS change FROM new_rows"
  const removed = "SELECT *, -1 AS change FROM old_rows"
  yield* counter("count_inserted_contacts", [added])
  yield* counter("count_updated_contacts", [added, removed])
  yield* counter("count_deleted_contacts", [removed])
  yield* sql`
    CREATE TRIGGER contacts_counted_on_insert AFTER INSERT ON contacts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_contacts()`
  yield* sql`
    CREATE TRIGGER contacts_counted_on_update AFTER UPDATE ON contacts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_updated_contacts()`
  yield* sql`
    CREATE TRIGGER contacts_counted_on_delete AFTER DELETE ON contacts
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_contacts()`
})
