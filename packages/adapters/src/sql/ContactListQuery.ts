import type { ContactQuery, ContactSortField } from "@cisbook/core/contacts/ContactQuery"

const columns = [
  "id",
  "tenant_id",
  "code",
  "name",
  "email",
  "external_id",
  "is_customer",
  "is_supplier",
  "is_cis_subcontractor",
  "vat_registered",
  "vat_number",
  "last_sdc_date",
  "cis_type",
  "cis_title",
  "cis_first_name",
  "cis_second_name",
  "cis_last_name",
  "cis_trading_name",
  "cis_utr",
  "cis_ni_number",
  "cis_company_number",
  "cis_partner_utr",
  "verification_status",
  "verification_number",
  "tax_treatment",
  "verified_at",
  "verification_source",
  "verification_message",
  "default_vat_rate",
  "payment_terms_days",
  "created_at",
  "updated_at"
]

/** The columns a contact is read from (ContactRow, once the client has made them camelCase). */
export const contactColumns = columns.join(", ")

const camelCase = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())

/**
 * What a list statement answers: the count and a page's columns already named as ContactRow
 * names them, so that its rows need no mapping on the way out (a list is the hottest read).
 */
const listedColumns = [
  'total.total_count AS "totalCount"',
  ...columns.map((c) => `page.${c} AS "${camelCase(c)}"`)
].join(", ")

// Each is the key of one of the migration's sort indexes (Code's is the code itself, the
// tie-breaker of all the others), so that a page is read off the index.
const sortKeys: Record<ContactSortField, ((table: string) => string) | null> = {
  Name: (t) => `lower(${t}name) COLLATE "C"`,
  Code: null,
  Email: (t) => `${t}email`,
  CreatedAt: (t) => `${t}created_at`,
  UpdatedAt: (t) => `${t}updated_at`
}

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`)

export interface ListSql {
  readonly text: string
  readonly values: ReadonlyArray<unknown>
}

/**
 * The one statement that lists contacts: the count of every match, and the page. Plain SQL with
 * $n parameters, so that anything that speaks to PostgreSQL (a benchmark's bare pg client
 * included) runs exactly what the service runs. Rows are ContactRows named in camelCase (no
 * client mapping needed), in page order; a row whose `id` is null carries only `totalCount` (a
 * page past the end). Every part is scoped by tenant.
 *
 * Without search terms the count comes from contact_counts and the page straight off a sort
 * index. With them, the trigram index finds the matches once; they are counted, and the page is
 * the top of them, read back by primary key.
 */
export const contactListSql = (tenantId: string, query: ContactQuery): ListSql => {
  const values: Array<unknown> = [tenantId]
  const param = (value: unknown) => {
    values.push(value)
    return `$${values.length}`
  }
  const filters = new Set(["tenant_id = $1"])
  if (query.role === "Customer") filters.add("is_customer")
  if (query.role === "Supplier") filters.add("is_supplier")
  if (query.role === "CisSubcontractor") filters.add("is_cis_subcontractor")
  if (query.verificationStatus !== null) filters.add("is_cis_subcontractor")
  if (query.verificationStatus !== null && query.verificationStatus !== "All") {
    filters.add(`verification_status = ${param(query.verificationStatus)}`)
  }
  const counted = [...filters].join(" AND ")
  const direction = query.sortDesc ? "DESC" : "ASC"
  const sortKey = sortKeys[query.sortBy]
  const orderBy = (key: string | null, code: string) =>
    key === null ? `${code} ${direction}` : `${key} ${direction}, ${code} ${direction}`
  const page = `LIMIT ${param(query.limit)} OFFSET ${param(query.offset)}`

  if (query.terms.length === 0) {
    return {
      text: `SELECT ${listedColumns}
FROM (SELECT coalesce(sum(contacts), 0)::bigint AS total_count FROM contact_counts WHERE ${counted}) total
LEFT JOIN LATERAL (
  SELECT ${contactColumns} FROM contacts WHERE ${counted} ORDER BY ${orderBy(sortKey?.("") ?? null, "code")} ${page}
) page ON true
ORDER BY ${orderBy(sortKey?.("page.") ?? null, "page.code")}`,
      values
    }
  }

  const searched = [counted, ...query.terms.map((term) => `search_text LIKE ${param(`%${escapeLike(term)}%`)}`)].join(
    " AND "
  )
  const keyed = sortKey !== null
  return {
    text: `WITH matches AS MATERIALIZED (
  SELECT id, code${keyed ? `, ${sortKey("")} AS sort_key` : ""} FROM contacts WHERE ${searched}
)
SELECT ${listedColumns}
FROM (SELECT count(*) AS total_count FROM matches) total
LEFT JOIN LATERAL (
  SELECT ${columns.map((c) => `c.${c}`).join(", ")}${keyed ? ", top.sort_key" : ""}
  FROM (SELECT * FROM matches ORDER BY ${orderBy(keyed ? "sort_key" : null, "code")} ${page}) top
  JOIN contacts c ON c.tenant_id = $1 AND c.id = top.id
) page ON true
ORDER BY ${orderBy(keyed ? "page.sort_key" : null, "page.code")}`,
    values
  }
}
