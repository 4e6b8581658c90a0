import { contactCodeCandidatePattern } from "@cisbook/core/contacts/ContactCode"
import { ContactRepo } from "@cisbook/core/ports/ContactRepo"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { contactColumns, contactListSql } from "./ContactListQuery.js"
import { contactFromRow, ContactRow, contactValues } from "./ContactRows.js"
import { uniqueWrite } from "./UniqueWrite.js"

const CodeKey = Schema.Struct({ tenantId: Schema.String, code: Schema.String })

export const ContactRepoSql = Layer.effect(
  ContactRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
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
      insert: (contact) =>
        sql`INSERT INTO contact_codes ${sql.insert({ tenantId: contact.tenantId, code: contact.code })}`.pipe(
          Effect.zipRight(
            sql`INSERT INTO contacts ${sql.insert({
              tenantId: contact.tenantId,
              id: contact.id,
              code: contact.code,
              createdAt: contact.createdAt,
              ...contactValues(contact)
            })}`
          ),
          sql.withTransaction,
          Effect.asVoid,
          codeWrite
        ),
      findByCode: (tenantId, code) =>
        findByCode({ tenantId, code }).pipe(Effect.map(Option.map(contactFromRow)), Effect.orDie),
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
          const rows = yield* sql.unsafe<ContactRow & { readonly totalCount: number }>(text, values)
          return {
            totalCount: rows[0]?.totalCount ?? 0,
            items: rows.filter((row) => row.id !== null).map(contactFromRow)
          }
        }).pipe(Effect.orDie)
    })
  })
)
