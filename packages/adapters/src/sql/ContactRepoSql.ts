import { contactCodeCandidateForms, contactCodeCandidatePattern } from "@cisbook/core/contacts/ContactCode"
import type { Contact } from "@cisbook/core/contacts/Contact"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { contactColumns, contactListSql } from "./ContactListQuery.js"
import { contactFromRow, ContactRow, contactValues } from "./ContactRows.js"
import { CopyIn } from "./CopyIn.js"
import { uniqueWrite } from "./UniqueWrite.js"

const CodeKey = Schema.Struct({ tenantId: Schema.String, code: Schema.String })

const decodeCodes = Schema.decodeUnknown(Schema.Array(Schema.Struct({ code: Schema.String })))
const decodeUtrCodes = Schema.decodeUnknown(Schema.Array(Schema.Struct({ utr: Schema.String, code: Schema.String })))
const decodeContactRows = Schema.decodeUnknown(Schema.Array(ContactRow))

/** The suffixed candidates of the bases, as parallel arrays of prefixes and whole-code lengths. */
const candidateForms = (bases: ReadonlyArray<string>) => {
  const forms = new Map<string, { readonly prefix: string; readonly length: number }>()
  for (const base of bases) {
    for (const { digits, prefix } of contactCodeCandidateForms(base)) {
      forms.set(`${prefix}|${digits}`, { prefix, length: prefix.length + digits })
    }
  }
  return { prefixes: [...forms.values()].map((f) => f.prefix), lengths: [...forms.values()].map((f) => f.length) }
}

/** The first key of the transaction lock under which a tenant's contact codes are issued ("CODE"). */
const CODE_LOCK_SPACE = 0x434f4445

/** Code point order, as the code column's collation ("C") sorts. */
const codePointOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const newContactRow = (contact: Contact) => ({
  tenantId: contact.tenantId,
  id: contact.id,
  code: contact.code,
  createdAt: contact.createdAt,
  ...contactValues(contact)
})

/** The type of each column a new contact is written with: a batch goes as one array a column. */
const newContactColumnTypes = {
  tenantId: "uuid",
  id: "uuid",
  code: "text",
  createdAt: "timestamptz",
  name: "text",
  email: "text",
  externalId: "text",
  isCustomer: "bool",
  isSupplier: "bool",
  isCisSubcontractor: "bool",
  vatRegistered: "bool",
  vatNumber: "text",
  lastSdcDate: "date",
  cisType: "text",
  cisTitle: "text",
  cisFirstName: "text",
  cisSecondName: "text",
  cisLastName: "text",
  cisTradingName: "text",
  cisUtr: "text",
  cisNiNumber: "text",
  cisCompanyNumber: "text",
  cisPartnerUtr: "text",
  verificationStatus: "text",
  verificationNumber: "text",
  taxTreatment: "text",
  verifiedAt: "timestamptz",
  verificationSource: "text",
  verificationMessage: "text",
  defaultVatRate: "text",
  paymentTermsDays: "int4",
  updatedAt: "timestamptz"
} as const satisfies Record<keyof ReturnType<typeof newContactRow>, string>

const newContactColumns = Object.keys(newContactColumnTypes) as Array<keyof typeof newContactColumnTypes>

export const ContactRepoSql = Layer.effect(
  ContactRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The list statement names its columns as ContactRow does: its rows need no name mapping.
    const rawSql = sql.withoutTransforms()
    const codeWrite = uniqueWrite(sql, { contact_codes_pkey: "code" })

    const issuedCodes = SqlSchema.findAll({
      Request: Schema.Struct({ tenantId: Schema.String, base: Schema.String }),
      Result: Schema.Struct({ code: Schema.String }),
      // Every candidate starts with the base's first character: the range keeps the scan on the key.
      execute: ({ base, tenantId }) => sql`
        SELECT code FROM contact_codes
        WHERE tenant_id = ${tenantId}
          AND code >= ${base.slice(0, 1)} AND code < ${String.fromCharCode(base.charCodeAt(0) + 1)}
          AND code ~ ${contactCodeCandidatePattern(base)}`
    })
    const findByCode = SqlSchema.findOne({
      Request: CodeKey,
      Result: ContactRow,
      execute: ({ code, tenantId }) =>
        sql`SELECT ${sql.literal(contactColumns)} FROM contacts WHERE tenant_id = ${tenantId} AND code = ${code}`
    })

    const copyIn = yield* Effect.serviceOption(CopyIn)

    // On PostgreSQL with COPY (the codes too); elsewhere one array a column through unnest (a
    // batch of 1,000 would otherwise bind 31,000 parameters).
    const insertContacts = (contacts: ReadonlyArray<Contact>) => {
      const rows = contacts.map(newContactRow)
      if (Option.isSome(copyIn)) {
        return copyIn.value.rows(
          "contacts",
          newContactColumns,
          rows.map((row) => newContactColumns.map((column) => row[column]))
        )
      }
      const arrays = newContactColumns.map(
        (column) => sql`${rows.map((row) => row[column])}::${sql.literal(newContactColumnTypes[column])}[]`
      )
      return sql`INSERT INTO contacts (${sql.csv(newContactColumns.map((column) => sql`${sql(column)}`))})
        SELECT * FROM unnest(${sql.csv(arrays)})`
    }

    const findByCodeForUpdate = SqlSchema.findOne({
      Request: CodeKey,
      Result: ContactRow,
      execute: ({ code, tenantId }) => sql`
        SELECT ${sql.literal(contactColumns)} FROM contacts WHERE tenant_id = ${tenantId} AND code = ${code} FOR UPDATE`
    })

    return ContactRepo.of({
      issuedCodes: (tenantId, base) =>
        issuedCodes({ tenantId, base }).pipe(
          Effect.map((rows) => new Set(rows.map((r) => r.code))),
          Effect.orDie
        ),
      // A suffixed candidate is its prefix then digits: each form is one short range of the code
      // index (prefix0 up to prefix:), so no base scans all the codes that share its first letter.
      // OFFSET 0 keeps the planner from turning the per-form range scans into one join over every
      // code of the tenant, as it does while the table's statistics are stale after a big import.
      issuedCodesAmong: (tenantId, bases) => {
        if (bases.length === 0) return Effect.succeed(new Set<string>())
        const { lengths, prefixes } = candidateForms(bases)
        return sql`
          SELECT code FROM contact_codes WHERE tenant_id = ${tenantId} AND code = ANY(${bases}::text[])
          UNION
          SELECT candidate.code
          FROM unnest(${prefixes}::text[], ${lengths}::integer[]) AS form (prefix, code_length)
          CROSS JOIN LATERAL (
            SELECT code FROM contact_codes
            WHERE tenant_id = ${tenantId}
              AND code >= form.prefix || '0' AND code < form.prefix || ':'
              AND length(code) = form.code_length
            OFFSET 0
          ) candidate
          WHERE substr(candidate.code, length(form.prefix) + 1) ~ '^[0-9]+$'`.pipe(
          Effect.flatMap(decodeCodes),
          Effect.map((rows) => new Set(rows.map((r) => r.code))),
          Effect.orDie
        )
      },
      // An advisory lock, not a row lock: it blocks nothing but other issuers of the tenant's codes.
      lockCodes: (tenantId) =>
        sql`SELECT pg_advisory_xact_lock(${CODE_LOCK_SPACE}, hashtext(${tenantId}))`.pipe(Effect.asVoid, Effect.orDie),
      insert: (contact) =>
        sql`INSERT INTO contact_codes ${sql.insert({ tenantId: contact.tenantId, code: contact.code })}`.pipe(
          Effect.zipRight(sql`INSERT INTO contacts ${sql.insert(newContactRow(contact))}`),
          sql.withTransaction,
          Effect.asVoid,
          codeWrite
        ),
      // Codes go in in one order, so that concurrent batches wait for each other instead of deadlocking.
      issueCodes: (tenantId, codes) => {
        if (codes.length === 0) return Effect.void
        const sorted = [...codes].sort(codePointOrder)
        const insertCodes = Option.isSome(copyIn)
          ? copyIn.value.rows(
              "contact_codes",
              ["tenantId", "code"],
              sorted.map((code) => [tenantId, code])
            )
          : sql`INSERT INTO contact_codes ${sql.insert(sorted.map((code) => ({ tenantId, code })))}`
        return insertCodes.pipe(sql.withTransaction, Effect.asVoid, codeWrite)
      },
      // The code's foreign key refuses a code never issued, and the code's unique key one a contact
      // holds. In a transaction (a savepoint within the caller's), as COPY runs on a transaction's connection.
      insertIssued: (contacts) =>
        contacts.length === 0
          ? Effect.void
          : insertContacts(contacts).pipe(sql.withTransaction, Effect.asVoid, Effect.orDie),
      codesByUtr: (tenantId, utrs) =>
        utrs.length === 0
          ? Effect.succeed(new Map<string, string>())
          : sql`
              SELECT DISTINCT ON (cis_utr) cis_utr AS utr, code FROM contacts
              WHERE tenant_id = ${tenantId} AND cis_utr = ANY(${utrs}::text[])
              ORDER BY cis_utr, code`.pipe(
              Effect.flatMap(decodeUtrCodes),
              Effect.map((rows) => new Map(rows.map((r) => [r.utr, r.code]))),
              Effect.orDie
            ),
      findByCode: (tenantId, code) =>
        findByCode({ tenantId, code }).pipe(Effect.map(Option.map(contactFromRow)), Effect.orDie),
      findByCodes: (tenantId, codes) =>
        codes.length === 0
          ? Effect.succeed([])
          : sql`SELECT ${sql.literal(contactColumns)} FROM contacts
                WHERE tenant_id = ${tenantId} AND code = ANY(${codes}::text[])`.pipe(
              Effect.flatMap(decodeContactRows),
              Effect.map((rows) => rows.map(contactFromRow)),
              Effect.orDie
            ),
      findByCodeForUpdate: (tenantId, code) =>
        findByCodeForUpdate({ tenantId, code }).pipe(Effect.map(Option.map(contactFromRow)), Effect.orDie),
      update: (contact) =>
        sql`UPDATE contacts SET ${sql.update(contactValues(contact))}
            WHERE tenant_id = ${contact.tenantId} AND id = ${contact.id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (tenantId, id) =>
        sql`DELETE FROM contacts WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      list: (tenantId, query) =>
        Effect.gen(function* () {
          const { text, values } = contactListSql(tenantId, query)
          // The statement's columns are the contacts table's, whose types ContactRow describes.
          const rows = yield* rawSql.unsafe<ContactRow & { readonly totalCount: number }>(text, values)
          return {
            totalCount: rows[0]?.totalCount ?? 0,
            items: rows.filter((row) => row.id !== null).map(contactFromRow)
          }
        }).pipe(Effect.orDie)
    })
  })
)
