import { Email } from "@cisbook/core/Email"
import type { ImportFile } from "@cisbook/core/contacts/ImportFile"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { ContactImport } from "@cisbook/core/contacts/ContactImport"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { largeImportCsv } from "@cisbook/testkit/ImportFixtures"
import { expect, layer } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { UseCasesOverSql } from "./UseCasesOverSql.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const IMPORTS = 20
const ROWS = 100

/** The fixture's rows share code bases (JOHNSMIT, MARYSMIT, ...), so every import races every other for them. */
const file: ImportFile = {
  name: "contacts.csv",
  records: Stream.fromIterable(
    largeImportCsv(ROWS)
      .split("\r\n")
      .filter((line) => line !== "")
      .map((line) => line.split(","))
  )
}

layer(UseCasesOverSql, { timeout: "120 seconds" })("imports into one tenant at once", (it) => {
  it.effect("import every row, each contact under its own code", () =>
    Effect.gen(function* () {
      const owner = yield* (yield* Users).create({ email: Email.make("importer@example.com"), name: "Importer" })
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("import-race"), name: "Race", email: null })
        .pipe(asUser(owner))
      const imports = yield* ContactImport
      const rowIds = Array.from({ length: ROWS }, (_, i) => i + 1)
      const started = Date.now()
      const results = yield* Effect.forEach(
        Array.from({ length: IMPORTS }),
        () => imports.importRows(file, rowIds).pipe(asMember(owner, "import-race")),
        { concurrency: IMPORTS }
      )
      yield* Effect.logInfo(`${IMPORTS} imports of ${ROWS} rows at once took ${Date.now() - started} ms`)
      const failures = results.flatMap((result) => result.rows.filter((row) => row.status === "Failed"))
      expect(failures).toEqual([])
      const codes = results.flatMap((result) => result.rows.map((row) => row.contactCode))
      expect(codes).toHaveLength(IMPORTS * ROWS)
      expect(new Set(codes).size).toBe(IMPORTS * ROWS)
    })
  )
})
