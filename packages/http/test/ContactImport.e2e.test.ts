import { importTemplateCsv } from "@cisbook/core/contacts/ImportTemplate"
import { contactImportForm } from "@cisbook/sdk/ContactImportForm"
import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { importFixture, largeImportCsv } from "@cisbook/testkit/ImportFixtures"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { assert, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import { e2e, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

const fixture = (name: string) => contactImportForm(fs.readFileSync(importFixture(name)), { fileName: name })

/** A request through the in-process server, answering status, content type and body (JSON when it is JSON). */
const raw = (key: string | undefined, method: "GET" | "POST", url: string, form?: FormData) =>
  Effect.flatMap(HttpClient.HttpClient, (http) => {
    const base = HttpClientRequest.make(method)(url)
    const authed = key === undefined ? base : HttpClientRequest.setHeader(base, "x-api-key", key)
    return http.execute(form === undefined ? authed : HttpClientRequest.bodyFormData(authed, form))
  }).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text) => {
        const contentType = response.headers["content-type"] ?? ""
        return {
          status: response.status,
          contentType,
          disposition: response.headers["content-disposition"],
          text,
          body: /json/.test(contentType) && text !== "" ? (JSON.parse(text) as any) : undefined
        }
      })
    )
  )

/** A user with a client, owning a new tenant. */
const owner = (name: string) =>
  Effect.gen(function* () {
    const user = yield* signUp(name)
    const tenant = uniqueTenantCode(name)
    yield* user.api.tenants.createTenant({ payload: { code: tenant, name: `${name} Ltd` } })
    return { ...user, tenant }
  })

const subcontractorWithUtr = (utr: string) =>
  ({
    name: "Already Known",
    isSupplier: true,
    isCisSubcontractor: true,
    cisDetails: {
      type: "SoleTrader",
      title: null,
      firstName: "Al",
      secondName: null,
      lastName: "Known",
      tradingName: null,
      utr,
      niNumber: null,
      companyNumber: null
    }
  }) as const

layer(e2e(SqlTestPorts), { timeout: "120 seconds" })("contact import over HTTP", (it) => {
  describe("template", () => {
    it.effect("is a CSV download of the template's header and an example row, for members only", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("template")
        const res = yield* raw(key, "GET", `/tenants/${tenant}/contacts/import/template`)
        expect(res.status).toBe(200)
        expect(res.contentType).toMatch(/^text\/csv/)
        expect(res.disposition).toBe('attachment; filename="contacts-import-template.csv"')
        expect(res.text).toBe(importTemplateCsv)
        expect(yield* api.contactImport.getContactImportTemplate({ path: { tenant } })).toBe(importTemplateCsv)

        const stranger = yield* signUp("stranger")
        expect(yield* raw(stranger.key, "GET", `/tenants/${tenant}/contacts/import/template`)).toMatchObject({
          status: 403,
          contentType: "application/problem+json"
        })
        expect((yield* raw(key, "GET", `/tenants/no-such-tenant/contacts/import/template`)).status).toBe(404)
        expect((yield* raw(undefined, "GET", `/tenants/${tenant}/contacts/import/template`)).status).toBe(401)
      })
    )
  })

  describe("analyze", () => {
    it.effect("reads an Excel-saved file (BOM, CRLF, quoted commas, accents, UK dates) and creates nothing", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("excel")
        const res = yield* raw(key, "POST", `/tenants/${tenant}/contacts/import/analyze`, fixture("excel-bom-crlf.csv"))
        expect(res.status).toBe(200)
        expect(res.contentType).toMatch(/^application\/json/)
        const rows = res.body as ReadonlyArray<any>
        expect(rows.map((r) => [r.rowId, r.subcontractor?.name, r.skipReason])).toEqual([
          [1, "John Smith Groundworks", null],
          [2, "Zoë Ó Briain, Plastering", null],
          [3, "Acme Roofing Ltd", null],
          [4, "Bloggs & Sons", null]
        ])
        expect(rows[0]).toEqual({
          rowId: 1,
          subcontractor: {
            name: "John Smith Groundworks",
            email: "john@smith-groundworks.example",
            externalId: null,
            isCustomer: false,
            isSupplier: true,
            isCisSubcontractor: true,
            vatRegistered: true,
            vatNumber: "GB123456789",
            lastSdcDate: null,
            cisDetails: {
              type: "SoleTrader",
              title: "Mr",
              firstName: "John",
              secondName: null,
              lastName: "Smith",
              tradingName: "Smith Groundworks",
              utr: "2234567890",
              niNumber: "AB123456C",
              companyNumber: null,
              partnerUtr: null
            },
            supplierSettings: { defaultVatRate: "Standard", paymentTermsDays: null }
          },
          skipReason: null,
          duplicateOf: null,
          verification: { verificationNumber: "V1234567890", verificationDate: "2026-04-06", taxTreatment: "Net" }
        })
        expect(rows[1].subcontractor).toMatchObject({
          email: "zoe@obriain.example",
          vatRegistered: false,
          supplierSettings: { defaultVatRate: "NoVat" },
          cisDetails: { firstName: "Zoë", secondName: "Áine", lastName: "Ó Briain", utr: "9345678901" }
        })
        expect(rows[2]).toMatchObject({
          subcontractor: {
            cisDetails: { type: "Company", companyNumber: "01234567", utr: "6456789012" },
            supplierSettings: { defaultVatRate: "ReverseCharge" }
          },
          verification: {
            verificationNumber: "V9876543210/A",
            verificationDate: "2026-05-01",
            taxTreatment: "Unmatched"
          }
        })
        // A partnership with its nominated partner, as HMRC verifies it.
        expect(rows[3].subcontractor.cisDetails).toMatchObject({
          type: "Partnership",
          tradingName: "Bloggs & Sons",
          firstName: "Fred",
          lastName: "Bloggs",
          niNumber: "CE123456A",
          partnerUtr: null
        })

        // The SDK's client reads the same answer; nothing was created.
        const viaSdk = yield* api.contactImport.analyzeContactImport({
          path: { tenant },
          payload: fixture("excel-bom-crlf.csv")
        })
        expect(viaSdk).toEqual(rows)
        expect((yield* api.contacts.listContacts({ path: { tenant }, urlParams: {} })).totalCount).toBe(0)
      })
    )

    it.effect("reads semicolon and tab delimited files, quoted line breaks and mixed header spellings", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* owner("shapes")
        const analyse = (name: string) =>
          api.contactImport.analyzeContactImport({ path: { tenant }, payload: fixture(name) })
        const semicolon = yield* analyse("semicolon.csv")
        expect(semicolon.map((r) => [r.subcontractor?.name, r.skipReason])).toEqual([
          ["Smith, John", null],
          ["Brick & Co, Ltd", null]
        ])
        expect(semicolon[0]?.verification).toEqual({
          verificationNumber: "V1111111111",
          verificationDate: "2026-04-15",
          taxTreatment: "Gross"
        })
        expect(semicolon[1]?.subcontractor).toMatchObject({
          vatRegistered: true,
          supplierSettings: { defaultVatRate: "Standard" },
          cisDetails: { type: "Company", companyNumber: "SC123456" }
        })

        const tab = yield* analyse("tab-delimited.csv")
        expect(tab.map((r) => [r.subcontractor?.name, r.skipReason])).toEqual([
          ["Tab Plumbing, Heating", null],
          ["Second Tab", null]
        ])
        expect(tab[0]?.subcontractor).toMatchObject({
          email: "tab@plumbing.example",
          vatRegistered: true,
          supplierSettings: { defaultVatRate: "Reduced" },
          cisDetails: { type: "SoleTrader", firstName: "Terry", lastName: "Tab", niNumber: "CE123456A" }
        })

        const quoted = yield* analyse("quoted-newlines.csv")
        expect(quoted.map((r) => [r.rowId, r.subcontractor?.name, r.subcontractor?.cisDetails.tradingName])).toEqual([
          [1, 'Patrick "Paddy" Kelly', null],
          [2, "Kelly & Daughters,\nBuilding Contractors", "Kelly & Daughters, Builders"],
          [3, "Multi\nLine\nName", "Line Trust"]
        ])

        const mixed = yield* analyse("mixed-headers.csv")
        expect(mixed[0]).toMatchObject({
          skipReason: null,
          subcontractor: {
            name: "Mixed Headers Ltd",
            email: "office@mixed.example",
            vatRegistered: true,
            supplierSettings: { defaultVatRate: "Zero" },
            cisDetails: {
              type: "Company",
              utr: "8998877665",
              companyNumber: "OC123456",
              tradingName: "Mixed Headers Ltd"
            }
          },
          verification: {
            verificationNumber: "V2222222222AB",
            verificationDate: "2026-03-31",
            taxTreatment: "Unmatched"
          }
        })
        expect(mixed[1]).toMatchObject({
          skipReason: null,
          subcontractor: { cisDetails: { firstName: "Mary", lastName: "Major", niNumber: "EH112233B" } }
        })
      })
    )

    it.effect("gives every skip reason, each row on its own", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* owner("skips")
        const rows = yield* api.contactImport.analyzeContactImport({
          path: { tenant },
          payload: fixture("skip-reasons.csv")
        })
        expect(rows.map((r) => r.skipReason)).toEqual([
          null,
          "The row has no name.",
          'Type "Corporation" is not SoleTrader, Partnership, Company or Trust.',
          'UTR "1234567890": must be a 10-digit UTR with a valid check digit, for example 2234567890.',
          'NINumber "QQ123456Z": must be a National Insurance number: 2 letters, 6 digits and a final letter A, B, C or D, for example AB123456C.',
          'CompanyNumber "ABC": must be a Companies House number: 8 digits, or 2 letters and 6 digits, for example 01234567 or SC123456.',
          'VATRate "Luxury" is not a VAT rate: Standard, Reduced, Zero, Exempt, NoVat or ReverseCharge.',
          'VATRegistered "maybe" is not yes or no (true/false, yes/no, y/n or 1/0).',
          'VerificationNumber "X123" is not a verification number: V and 10 digits, with a letter suffix for an unmatched subcontractor (V1234567890 or V1234567890/A).',
          'VerificationDate "31/02/2026" is not a date: write it as YYYY-MM-DD or DD/MM/YYYY.',
          "VerificationDate 2099-01-01 is in the future.",
          "A verification needs VerificationNumber, VerificationDate and TaxStatus: VerificationDate and TaxStatus are blank.",
          'TaxStatus "Partial" is not a tax status: Gross, Net or Unmatched (or gross, net, higher, 0, 20, 30).',
          "The CIS details a SoleTrader needs are missing: FirstName; UTR or NINumber.",
          "The CIS details a Company needs are missing: UTR or CompanyNumber.",
          'Email "not-an-email" is not an email address.',
          "The CIS details a Partnership needs are missing: TradingName; FirstName; LastName; PartnerUTR or NINumber."
        ])
        expect(rows.filter((r) => r.skipReason !== null).every((r) => r.subcontractor === null)).toBe(true)
      })
    )

    it.effect("flags rows whose UTR the tenant's contacts have, and never another tenant's", () =>
      Effect.gen(function* () {
        const mine = yield* owner("dupes")
        const theirs = yield* owner("others")
        const known = yield* mine.api.contacts.createContact({
          path: { tenant: mine.tenant },
          payload: subcontractorWithUtr("2234567890")
        })
        yield* theirs.api.contacts.createContact({
          path: { tenant: theirs.tenant },
          payload: subcontractorWithUtr("9345678901")
        })
        const rows = yield* mine.api.contactImport.analyzeContactImport({
          path: { tenant: mine.tenant },
          payload: fixture("excel-bom-crlf.csv")
        })
        expect(rows.map((r) => [r.rowId, r.duplicateOf, r.skipReason])).toEqual([
          [1, known.code, null],
          [2, null, null],
          [3, null, null],
          [4, null, null]
        ])
        const theirRows = yield* theirs.api.contactImport.analyzeContactImport({
          path: { tenant: theirs.tenant },
          payload: fixture("excel-bom-crlf.csv")
        })
        expect(theirRows.map((r) => r.duplicateOf)).toEqual([null, "ALREADYK", null, null])
      })
    )

    it.effect("refuses files that are not CSV, or have no rows, with a problem naming the file", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("badfiles")
        const expectations: ReadonlyArray<readonly [string, RegExp]> = [
          ["workbook.xlsx", /^The file cannot be read as CSV: it is not a text file/],
          ["utf16.csv", /^The file cannot be read as CSV: it is UTF-16 text/],
          ["windows-1252.csv", /^The file cannot be read as CSV: it is not UTF-8 text/],
          ["unclosed-quote.csv", /^The file cannot be read as CSV: a quoted cell is never closed/],
          ["empty.csv", /^The file is empty/],
          ["blank-lines-only.csv", /^The file is empty/],
          ["header-only.csv", /^The file has a header row but no data rows\.$/],
          ["no-template-columns.csv", /^The first row of the file names none of the template's columns/]
        ]
        for (const [name, detail] of expectations) {
          for (const path of ["import/analyze", "import"]) {
            const form = fixture(name)
            form.append("selections", '[{"rowId":1}]')
            const res = yield* raw(key, "POST", `/tenants/${tenant}/contacts/${path}`, form)
            expect(res, `${path} ${name}`).toMatchObject({
              status: 400,
              contentType: "application/problem+json",
              body: {
                status: 400,
                title: "One or more validation errors occurred.",
                errors: { file: [expect.any(String)] }
              }
            })
            expect(res.body.detail, name).toMatch(detail)
          }
        }
        expect((yield* api.contacts.listContacts({ path: { tenant }, urlParams: {} })).totalCount).toBe(0)
      })
    )

    it.effect("refuses a file over 5 MiB with 413, and one of more than 10,000 rows with 400", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("limits")
        const big = contactImportForm(`Name\n${"x".repeat(5 * 1024 * 1024)}\n`)
        const res = yield* raw(key, "POST", `/tenants/${tenant}/contacts/import/analyze`, big)
        expect(res).toMatchObject({
          status: 413,
          contentType: "application/problem+json",
          body: {
            status: 413,
            title: "Content Too Large",
            detail: "The file is larger than 5 MiB, the most an uploaded file may be. Split it into smaller files."
          }
        })
        const viaSdk = yield* Effect.flip(
          api.contactImport.analyzeContactImport({
            path: { tenant },
            payload: contactImportForm(`Name\n${"x".repeat(5 * 1024 * 1024)}\n`)
          })
        )
        expect(viaSdk).toMatchObject({ _tag: "ContentTooLarge" })

        const tooMany = yield* Effect.flip(
          api.contactImport.analyzeContactImport({
            path: { tenant },
            payload: contactImportForm(largeImportCsv(10_001))
          })
        )
        assert.strictEqual(tooMany._tag, "ValidationFailed")
        expect(tooMany).toMatchObject({
          detail: "The file has more than 10,000 data rows; split it into files of at most 10,000 rows each.",
          errors: { file: [expect.any(String)] }
        })
      })
    )

    it.effect(
      "answers a body that is not a multipart form with a 415 problem, and one without a boundary with a 400",
      () =>
        Effect.gen(function* () {
          const { key, tenant } = yield* owner("garbled")
          const post = (contentType: string) =>
            Effect.flatMap(HttpClient.HttpClient, (http) =>
              http.execute(
                HttpClientRequest.post(`/tenants/${tenant}/contacts/import/analyze`).pipe(
                  HttpClientRequest.setHeader("x-api-key", key),
                  HttpClientRequest.bodyText("Name\nSecret Row", contentType)
                )
              )
            ).pipe(Effect.flatMap((res) => Effect.map(res.json, (body) => ({ status: res.status, body }))))
          expect(yield* post("multipart/form-data")).toEqual({
            status: 400,
            body: expect.objectContaining({
              detail: "A multipart/form-data body needs a boundary in its Content-Type."
            })
          })
          const csv = yield* post("text/csv")
          expect(csv).toMatchObject({
            status: 415,
            body: {
              status: 415,
              detail: expect.stringContaining("takes a body of type multipart/form-data, not text/csv")
            }
          })
          expect(JSON.stringify(csv.body)).not.toContain("Secret Row")
        })
    )

    it.effect("is refused to a caller who is not a member, before anything is read", () =>
      Effect.gen(function* () {
        const { tenant } = yield* owner("guarded")
        const stranger = yield* signUp("intruder")
        const res = yield* raw(
          stranger.key,
          "POST",
          `/tenants/${tenant}/contacts/import/analyze`,
          fixture("excel-bom-crlf.csv")
        )
        expect(res).toMatchObject({ status: 403, contentType: "application/problem+json" })
        expect(
          (yield* raw(undefined, "POST", `/tenants/${tenant}/contacts/import/analyze`, fixture("excel-bom-crlf.csv")))
            .status
        ).toBe(401)
      })
    )
  })

  describe("import", () => {
    it.effect("imports the selected rows; a skipped or absent row fails with its reason, the others go in", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("import")
        const form = contactImportForm(
          Buffer.concat([
            fs.readFileSync(importFixture("excel-bom-crlf.csv")),
            Buffer.from("Skipped Row,,,Corporation,,,,,,,,,,,,,\r\n")
          ]),
          { fileName: "subbies.csv", rowIds: [1, 2, 3, 4, 5, 42] }
        )
        const res = yield* raw(key, "POST", `/tenants/${tenant}/contacts/import`, form)
        expect(res.status).toBe(201)
        expect(res.body).toEqual({
          imported: 4,
          failed: 2,
          rows: [
            { rowId: 1, status: "Imported", contactCode: "JOHNSMIT", reason: null },
            { rowId: 2, status: "Imported", contactCode: "ZOEOBRIA", reason: null },
            { rowId: 3, status: "Imported", contactCode: "ACMEROOF", reason: null },
            { rowId: 4, status: "Imported", contactCode: "BLOGGSSO", reason: null },
            {
              rowId: 5,
              status: "Failed",
              contactCode: null,
              reason: 'Type "Corporation" is not SoleTrader, Partnership, Company or Trust.'
            },
            { rowId: 42, status: "Failed", contactCode: null, reason: "There is no data row 42: the file has 5." }
          ]
        })
        const john = yield* api.contacts.getContact({ path: { tenant, code: "JOHNSMIT" } })
        expect(john).toMatchObject({
          isSupplier: true,
          isCisSubcontractor: true,
          isCustomer: false,
          supplierSettings: { defaultVatRate: "Standard" },
          verification: {
            status: "Verified",
            verificationNumber: "V1234567890",
            taxTreatment: "Net",
            verifiedAt: new Date("2026-04-06T00:00:00.000Z"),
            source: "Manual",
            message: "Imported from subbies.csv, row 1"
          }
        })
        const zoe = yield* api.contacts.getContact({ path: { tenant, code: "ZOEOBRIA" } })
        expect(zoe.verification).toMatchObject({ status: "NotVerified", message: "Imported from subbies.csv, row 2" })
        const page = yield* api.contacts.listContacts({
          path: { tenant },
          urlParams: { role: "CisSubcontractor", verificationStatus: "Verified" }
        })
        expect(page.items.map((c) => c.code).sort()).toEqual(["ACMEROOF", "JOHNSMIT"])

        // Imported again, the rows are duplicates of what is now there, and get new codes.
        const again = yield* api.contactImport.analyzeContactImport({
          path: { tenant },
          payload: fixture("excel-bom-crlf.csv")
        })
        expect(again.map((r) => r.duplicateOf)).toEqual(["JOHNSMIT", "ZOEOBRIA", "ACMEROOF", "BLOGGSSO"])
        const second = yield* api.contactImport.importContacts({
          path: { tenant },
          payload: contactImportForm(fs.readFileSync(importFixture("excel-bom-crlf.csv")), { rowIds: [1] })
        })
        expect(second.rows).toEqual([{ rowId: 1, status: "Imported", contactCode: "JOHNSMI2", reason: null }])
      })
    )

    it.effect("refuses a missing, malformed or empty selection, and a missing file, with 400", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* owner("selections")
        const post = (form: FormData) => raw(key, "POST", `/tenants/${tenant}/contacts/import`, form)
        const withSelections = (selections: string) => {
          const form = fixture("excel-bom-crlf.csv")
          form.append("selections", selections)
          return form
        }
        const missing = yield* post(fixture("excel-bom-crlf.csv"))
        expect(missing).toMatchObject({ status: 400, body: { errors: { selections: ["Required"] } } })
        const cases: ReadonlyArray<readonly [string, string, string]> = [
          [
            "not json",
            "selections",
            'Must be a JSON array of the data rows to import, for example [{"rowId":1},{"rowId":3}]'
          ],
          ["[]", "selections", "Select at least one row to import"],
          ['[{"rowId":0}]', "selections[0].rowId", "A rowId is a data row number: a whole number from 1"],
          ["[3]", "selections[0]", 'Each selection is an object such as {"rowId":3}']
        ]
        for (const [selections, member, message] of cases) {
          const res = yield* post(withSelections(selections))
          expect(res, selections).toMatchObject({
            status: 400,
            contentType: "application/problem+json",
            body: { errors: { [member]: [message] } }
          })
        }
        // Two files, or the file sent as a plain field, name the part without echoing its contents or paths.
        const twoFiles = fixture("excel-bom-crlf.csv")
        twoFiles.append("file", new Blob(["Name\nX\n"]), "second.csv")
        twoFiles.append("selections", '[{"rowId":1}]')
        const asField = new FormData()
        asField.append("file", "Name\nX\n")
        asField.append("selections", '[{"rowId":1}]')
        for (const form of [twoFiles, asField]) {
          const res = yield* post(form)
          expect(res).toMatchObject({
            status: 400,
            body: { errors: { file: ["Send exactly one file, the CSV, in the part named file"] } }
          })
          expect(res.text).not.toMatch(/\/tmp|Name\\nX/)
        }
        const selectionsAsFile = fixture("excel-bom-crlf.csv")
        selectionsAsFile.append("selections", new Blob(['[{"rowId":1}]']), "selections.json")
        const asFile = yield* post(selectionsAsFile)
        expect(asFile).toMatchObject({ status: 400, body: { errors: { selections: [expect.any(String)] } } })
        expect(asFile.text).not.toMatch(/\/tmp/)
        const noFile = new FormData()
        noFile.append("selections", '[{"rowId":1}]')
        expect(yield* post(noFile)).toMatchObject({ status: 400, body: { errors: { file: ["Required"] } } })
        expect((yield* api.contacts.listContacts({ path: { tenant }, urlParams: {} })).totalCount).toBe(0)
      })
    )

    it.effect("gives imports running at the same time distinct codes, every row imported", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* owner("racing")
        const csv = fs.readFileSync(importFixture("excel-bom-crlf.csv"))
        const results = yield* Effect.all(
          Array.from({ length: 4 }, () =>
            api.contactImport.importContacts({
              path: { tenant },
              payload: contactImportForm(csv, { rowIds: [1, 2, 3, 4] })
            })
          ),
          { concurrency: 4 }
        )
        expect(results.map((r) => r.imported)).toEqual([4, 4, 4, 4])
        const codes = results.flatMap((r) => r.rows.map((row) => row.contactCode))
        expect(new Set(codes).size).toBe(16)
        expect(codes.filter((code) => code?.startsWith("JOHNSMI")).sort()).toEqual([
          "JOHNSMI2",
          "JOHNSMI3",
          "JOHNSMI4",
          "JOHNSMIT"
        ])
        expect((yield* api.contacts.listContacts({ path: { tenant }, urlParams: {} })).totalCount).toBe(16)
      })
    )

    it.effect("imports into the caller's tenant only", () =>
      Effect.gen(function* () {
        const mine = yield* owner("isolated")
        const theirs = yield* owner("bystander")
        const refused = yield* Effect.flip(
          theirs.api.contactImport.importContacts({
            path: { tenant: mine.tenant },
            payload: contactImportForm(fs.readFileSync(importFixture("excel-bom-crlf.csv")), { rowIds: [1] })
          })
        )
        expect(refused).toMatchObject({ _tag: "Forbidden" })
        yield* mine.api.contactImport.importContacts({
          path: { tenant: mine.tenant },
          payload: contactImportForm(fs.readFileSync(importFixture("excel-bom-crlf.csv")), { rowIds: [1, 2] })
        })
        const count = (who: typeof mine) =>
          Effect.map(
            who.api.contacts.listContacts({ path: { tenant: who.tenant }, urlParams: {} }),
            (page) => page.totalCount
          )
        expect(yield* count(mine)).toBe(2)
        expect(yield* count(theirs)).toBe(0)
      })
    )

    it.effect("works through the Promise client too", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* owner("promises")
        const address = (yield* HttpServer.HttpServer).address
        const port = address._tag === "TcpAddress" ? address.port : 0
        const cisbook = yield* Effect.promise(() =>
          createPromiseClient({ baseUrl: `http://127.0.0.1:${port}`, credentials: { apiKey: key } })
        )
        const csv = fs.readFileSync(importFixture("semicolon.csv"))
        const rows = yield* Effect.promise(() =>
          cisbook.contactImport.analyzeContactImport({ path: { tenant }, payload: contactImportForm(csv) })
        )
        const result = yield* Effect.promise(() =>
          cisbook.contactImport.importContacts({
            path: { tenant },
            payload: contactImportForm(csv, { rowIds: rows.map((row) => row.rowId) })
          })
        )
        expect(result.rows.map((row) => row.contactCode)).toEqual(["SMITHJOH", "BRICKCOL"])
        const refused = yield* Effect.promise(() =>
          cisbook.contactImport
            .importContacts({ path: { tenant }, payload: contactImportForm(csv, { rowIds: [] }) })
            .then(
              () => undefined,
              (error: unknown) => error
            )
        )
        expect(refused).toMatchObject({ _tag: "ValidationFailed", errors: { selections: expect.any(Array) } })
      })
    )

    it.effect("analyses and imports a 10,000-row file", () =>
      Effect.gen(function* () {
        const { api, tenant } = yield* owner("tenk")
        const csv = largeImportCsv(10_000)
        const rows = yield* api.contactImport.analyzeContactImport({
          path: { tenant },
          payload: contactImportForm(csv)
        })
        expect(rows).toHaveLength(10_000)
        expect(rows.every((r) => r.skipReason === null)).toBe(true)
        const result = yield* api.contactImport.importContacts({
          path: { tenant },
          payload: contactImportForm(csv, { rowIds: rows.map((r) => r.rowId) })
        })
        expect(result.imported).toBe(10_000)
        expect(new Set(result.rows.map((r) => r.contactCode)).size).toBe(10_000)
        const page = yield* api.contacts.listContacts({
          path: { tenant },
          urlParams: { verificationStatus: "Verified" }
        })
        expect(page.totalCount).toBe(3334)
        expect((yield* api.contacts.listContacts({ path: { tenant }, urlParams: {} })).totalCount).toBe(10_000)
      })
    )
  })

  describe("documents", () => {
    it.effect("describe the import operations: multipart bodies, the CSV template and every status", () =>
      Effect.gen(function* () {
        const doc = (yield* raw(undefined, "GET", "/openapi.json")).body
        const base = "/tenants/{tenant}/contacts/import"
        const template = doc.paths[`${base}/template`].get
        expect(Object.keys(template.responses["200"].content)).toEqual(["text/csv"])
        const analyze = doc.paths[`${base}/analyze`].post
        const imports = doc.paths[base].post
        expect(Object.keys(analyze.responses).sort()).toEqual([
          "200",
          "400",
          "401",
          "403",
          "404",
          "413",
          "415",
          "429",
          "503"
        ])
        expect(Object.keys(imports.responses).sort()).toEqual([
          "201",
          "400",
          "401",
          "403",
          "404",
          "409",
          "413",
          "415",
          "429",
          "503"
        ])
        // The import takes an Idempotency-Key; the analysis, which only reads the file, does not.
        const takesKey = (operation: any) =>
          (operation.parameters ?? []).some((p: any) => p.name === "Idempotency-Key" && p.in === "header")
        expect(takesKey(imports)).toBe(true)
        expect(takesKey(analyze)).toBe(false)
        const form = imports.requestBody.content["multipart/form-data"].schema
        expect(form.required).toEqual(["file", "selections"])
        expect(form.properties.file).toMatchObject({ type: "string", format: "binary" })
        expect(doc.components.schemas.ImportSelections).toMatchObject({
          type: "string",
          contentMediaType: "application/json"
        })
        expect(doc.components.schemas.ContactImportRowDto.required).toEqual([
          "rowId",
          "subcontractor",
          "skipReason",
          "duplicateOf",
          "verification"
        ])
        expect(analyze.description).toContain("duplicateOf")
        expect(imports.description).toContain("subcontractor.created")
      })
    )
  })
})
