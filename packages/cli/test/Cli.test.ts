import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { AppLive } from "@cisbook/adapters/AppLive"
import { DatabaseLive } from "@cisbook/adapters/sql/Database"
import { ProviderEventHandling } from "@cisbook/core/billing/providerevents/ProviderEventHandling"
import { ProviderEventReceiving } from "@cisbook/core/billing/providerevents/ProviderEventReceiving"
import { Email } from "@cisbook/core/Email"
import { Mandate } from "@cisbook/core/billing/mandates/Mandate"
import { flowExpiry } from "@cisbook/core/billing/mandates/MandateFlow"
import { ContactId, MandateId, MonthlyReturnId } from "@cisbook/core/Ids"
import { MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import { HmrcReceipt, MonthlyReturn, ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { MandateRepo } from "@cisbook/core/billing/mandates/MandateRepo"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { BillingProfiles } from "@cisbook/core/billing/mandates/BillingProfiles"
import { asMember, asSupport } from "@cisbook/core/tenants/ActingFor"
import { importFixture } from "@cisbook/testkit/ImportFixtures"
import { Users } from "@cisbook/core/users/Users"
import { Contact, notVerified, Verification } from "@cisbook/core/contacts/Contact"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { Contacts } from "@cisbook/core/contacts/Contacts"
import { PurchaseInvoices } from "@cisbook/core/invoices/PurchaseInvoices"
import { WebhookDispatch } from "@cisbook/core/webhooks/WebhookDispatch"
import { TenantMail } from "@cisbook/core/mail/TenantMail"
import { MailTransport } from "@cisbook/core/mail/MailTransport"
import { Transactor } from "@cisbook/core/system/Transactor"
import { MailDispatch } from "@cisbook/core/mail/MailDispatch"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { TenantSettings } from "@cisbook/core/tenants/TenantSettings"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { NodeContext } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { formatMoney } from "@cisbook/core/mail/MailFormat"
import { ukCalendarDate } from "@cisbook/core/CalendarDate"
import { lateFilingPenalty } from "@cisbook/core/returns/LateFilingPenalty"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, type Console, Duration, Effect, Layer, Redacted } from "effect"
import { run } from "../src/Cli.js"
import { SecretInput } from "../src/SecretInput.js"
import { asUser } from "@cisbook/core/users/ActingAs"
import { storedDeclarations } from "@cisbook/testkit/DeclarationsFixtures"

/**
 * The admin CLI, run in-process as `bin.ts` runs it, over an embedded database in a fresh
 * DATA_DIR. The tests share that directory and build on each other, in order: each one opens
 * the database (1.5-3 s), so there are few of them.
 */

let dataDir = ""
const configured = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.withConfigProvider(effect, ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]])))

interface Output {
  readonly stdout: ReadonlyArray<string>
  readonly stderr: ReadonlyArray<string>
  readonly exitCode: typeof process.exitCode
}

const lines = (args: ReadonlyArray<unknown>) => args.map(String).join(" ").split("\n")

/** Runs `cisbook <argv>` and captures what it prints, logs included (they go to stderr). */
const cli = (...argv: ReadonlyArray<string>): Effect.Effect<Output> =>
  Effect.gen(function* () {
    const stdout: Array<string> = []
    const stderr: Array<string> = []
    const console = yield* Effect.console
    const log = (...args: ReadonlyArray<unknown>) => void stdout.push(...lines(args))
    const error = (...args: ReadonlyArray<unknown>) => void stderr.push(...lines(args))
    const capturing: Console.Console = {
      ...console,
      log: (...args) => Effect.sync(() => log(...args)),
      error: (...args) => Effect.sync(() => error(...args)),
      unsafe: { ...console.unsafe, log, error }
    }
    yield* run(["node", "cisbook", ...argv]).pipe(
      Effect.provide(NodeContext.layer),
      configured,
      Effect.withConsole(capturing),
      Effect.orDie
    )
    return { stdout, stderr, exitCode: process.exitCode }
  })

const succeeded = (output: Output) => {
  expect(output.stderr).toEqual([])
  expect(output.exitCode ?? 0).toBe(0)
  return output.stdout
}

const failed = (output: Output) => {
  expect(output.stdout).toEqual([])
  expect(output.exitCode).toBe(1)
  return output.stderr
}

describe("cisbook admin CLI", () => {
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-cli-"))
  })
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  afterEach(() => {
    process.exitCode = undefined
  })

  it.live("db migrate applies the migrations, then reports the schema up to date", () =>
    Effect.gen(function* () {
      expect(succeeded(yield* cli("db", "migrate"))).toEqual([
        "Applied 1_foundation",
        "Applied 2_events_and_settings",
        "Applied 3_contacts",
        "Applied 4_webhooks",
        "Applied 5_invoices",
        "Applied 6_mail",
        "Applied 7_monthly_returns",
        "Applied 8_billing",
        "Applied 9_verification_requests",
        "Applied 10_connections",
        "Applied 11_billing_invoices",
        "Applied 12_idempotency_keys",
        "Applied 13_webhook_health",
        "Applied 14_rate_limits",
        "Applied 15_return_correlation",
        "Applied 16_cis_scheme",
        "Applied 17_govtalk_engine",
        "Applied 18_provider_events",
        "Applied 19_gocardless_sandbox_events",
        "Applied 20_failed_payments",
        "Applied 21_hmrc_credentials",
        "Applied 22_govtalk_response_endpoints",
        "Applied 23_partner_utr",
        "Applied 24_govtalk_final_answers",
        "Applied 25_statements",
        "Applied 26_purchase_payments",
        "Applied 27_declarations_and_registration",
        "Applied 28_import_analyses",
        "Applied 29_payment_read_at",
        "Applied 30_event_data_json"
      ])
      expect(succeeded(yield* cli("db", "migrate"))).toEqual(["The database schema is up to date."])
      // Every command's scope has closed: the data directory is no longer locked.
      expect(fs.existsSync(path.join(dataDir, "cisbook.lock"))).toBe(false)
    })
  )

  it.live("db migrate refuses a database that skipped a migration, naming it; put right, it is up to date", () =>
    Effect.gen(function* () {
      const database = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
        effect.pipe(Effect.provide(DatabaseLive), configured)
      yield* database(
        SqlClient.SqlClient.pipe(
          Effect.flatMap((sql) => sql`DELETE FROM effect_sql_migrations WHERE migration_id = 12`)
        )
      )
      const [message, ...rest] = failed(yield* cli("db", "migrate"))
      expect(rest).toEqual([])
      expect(message).toMatch(/^Error: The database's migrations do not match this version of cisbook: /)
      // The highest applied is whichever migration this version ends with.
      expect(message).toMatch(/migration 0012_idempotency_keys was never applied, but \d{4}_\w+ was/)
      process.exitCode = undefined
      yield* database(
        SqlClient.SqlClient.pipe(
          Effect.flatMap(
            (sql) => sql`INSERT INTO effect_sql_migrations (migration_id, name) VALUES (12, 'idempotency_keys')`
          )
        )
      )
      expect(succeeded(yield* cli("db", "migrate"))).toEqual(["The database schema is up to date."])
    })
  )

  it.live("users create makes a user with a normalised email address", () =>
    Effect.gen(function* () {
      const stdout = succeeded(yield* cli("users", "create", "--email", " Ada@Example.COM ", "--name", "Ada Lovelace"))
      expect(stdout).toHaveLength(1)
      expect(stdout[0]).toMatch(/^Created user ada@example\.com \([0-9a-f-]{36}\)\.$/)
    })
  )

  it.live("users create refuses a taken email address on stderr with exit code 1", () =>
    Effect.gen(function* () {
      expect(failed(yield* cli("users", "create", "--email", "ADA@example.com", "--name", "Another Ada"))).toEqual([
        "Error: A user with the email address ada@example.com already exists."
      ])
    })
  )

  it.live("users create names every invalid member", () =>
    Effect.gen(function* () {
      expect(failed(yield* cli("users", "create", "--email", "not-an-email", "--name", "   "))).toEqual([
        "Error: 2 members are invalid: email, name. See errors for each one.",
        "  email: Must be an email address such as name@example.com",
        "  name: A name is required"
      ])
    })
  )

  it.live("tenants create refuses an owner who is not a user", () =>
    Effect.gen(function* () {
      const stderr = failed(
        yield* cli("tenants", "create", "--code", "acme-builders", "--name", "Acme", "--owner", "nobody@example.com")
      )
      expect(stderr).toEqual(["Error: There is no user with the email address nobody@example.com."])
    })
  )

  it.live("tenants create makes a tenant, and tenants list shows it with its owner", () =>
    Effect.gen(function* () {
      const created = yield* cli(
        "tenants",
        "create",
        "--code",
        "acme-builders",
        "--name",
        "Acme Builders",
        "--owner",
        "ada@example.com",
        "--email",
        "Office@Acme.example"
      )
      expect(succeeded(created)).toEqual(["Created tenant acme-builders (Acme Builders), owned by ada@example.com."])

      const [header, ...rows] = succeeded(yield* cli("tenants", "list"))
      expect(header?.split(/\s{2,}/)).toEqual(["CODE", "NAME", "EMAIL", "OWNERS", "CREATED"])
      expect(rows).toHaveLength(1)
      const [code, name, email, owners, createdAt] = rows[0]?.split(/\s{2,}/) ?? []
      expect({ code, name, email, owners }).toEqual({
        code: "acme-builders",
        name: "Acme Builders",
        email: "office@acme.example",
        owners: "ada@example.com"
      })
      expect(Date.now() - new Date(createdAt ?? "").getTime()).toBeLessThan(5 * 60_000)
    })
  )

  it.live("api-keys create prints the new key alone on the last line, and the key authenticates its user", () =>
    Effect.gen(function* () {
      const stdout = succeeded(yield* cli("api-keys", "create", "--email", "ada@example.com", "--name", "laptop"))
      expect(stdout.length).toBeGreaterThan(1)
      expect(stdout[0]).toMatch(/^Created API key "laptop" \([0-9a-f-]{36}\) for ada@example\.com\./)
      const key = stdout.at(-1) ?? ""
      expect(key).toMatch(/^cis_[0-9A-Za-z]{43}$/)

      const { user } = yield* Effect.flatMap(ApiKeys, (keys) => keys.authenticate(key)).pipe(
        Effect.provide(AppLive),
        configured
      )
      expect(user).toMatchObject({ email: "ada@example.com", name: "Ada Lovelace" })
    })
  )

  describe("contacts import", () => {
    const excel = importFixture("excel-bom-crlf.csv")

    it.live("refuses flags that choose no rows, or rows it cannot read, before opening the database", () =>
      Effect.gen(function* () {
        const importing = (...flags: ReadonlyArray<string>) =>
          cli("contacts", "import", "--tenant", "acme-builders", "--file", excel, ...flags)
        expect(failed(yield* importing())).toEqual([
          "Error: Choose the rows to import with --rows (for example 1,3-5) or --all, or look first with --dry-run."
        ])
        expect(failed(yield* importing("--rows", "1,x"))).toEqual([
          'Error: --rows "1,x" is not a list of row numbers and ranges such as 1,3-5'
        ])
        expect(failed(yield* importing("--rows", "2", "--all"))).toEqual([
          "Error: Give either --rows or --all, not both."
        ])
      })
    )

    it.live("--dry-run shows the analysis and imports nothing", () =>
      Effect.gen(function* () {
        const stdout = succeeded(
          yield* cli("contacts", "import", "--tenant", "acme-builders", "--file", excel, "--dry-run")
        )
        expect(stdout[0]?.split(/\s{2,}/)).toEqual([
          "ROW",
          "NAME",
          "TYPE",
          "UTR",
          "PARTNER UTR",
          "VERIFIED",
          "DUPLICATE OF",
          "SKIP REASON"
        ])
        expect(stdout[1]?.split(/\s{2,}/)).toEqual([
          "1",
          "John Smith Groundworks",
          "SoleTrader",
          "2234567890",
          "Net 2026-04-06"
        ])
        expect(stdout.slice(-2)).toEqual([
          "4 rows: 4 can be imported, 0 skipped, 0 likely duplicates of existing contacts.",
          "Dry run: nothing was imported."
        ])
      })
    )

    it.live("--all imports every importable row with a progress bar and a summary; a second look finds them", () =>
      Effect.gen(function* () {
        const stdout = succeeded(
          yield* cli("contacts", "import", "--tenant", "acme-builders", "--file", excel, "--all")
        )
        expect(stdout.slice(-4)).toEqual([
          "Importing 4 rows into acme-builders...",
          "[##############################] 100%  4 of 4 rows",
          "",
          "Imported 4 rows; 0 failed."
        ])
        const again = succeeded(
          yield* cli("contacts", "import", "--tenant", "acme-builders", "--file", excel, "--dry-run")
        )
        expect(again[1]?.split(/\s{2,}/)).toContain("JOHNSMIT")
        expect(again.at(-2)).toBe("4 rows: 4 can be imported, 0 skipped, 4 likely duplicates of existing contacts.")
      })
    )

    it.live("--rows imports the rows given; a skipped one fails with its reason and the exit code is 1", () =>
      Effect.gen(function* () {
        const output = yield* cli(
          "contacts",
          "import",
          "--tenant",
          "acme-builders",
          "--file",
          importFixture("skip-reasons.csv"),
          "--rows",
          "1-3"
        )
        expect(output.exitCode).toBe(1)
        expect(output.stderr).toEqual(["Error: 2 selected rows failed; see the reasons above."])
        expect(output.stdout.slice(-4)).toEqual([
          "Imported 1 row; 2 failed.",
          "ROW  REASON",
          "2    The row has no name.",
          '3    Type "Corporation" is not SoleTrader, Partnership, Company or Trust.'
        ])
      })
    )

    it.live("says why a file or a tenant cannot be imported", () =>
      Effect.gen(function* () {
        const bad = yield* cli(
          "contacts",
          "import",
          "--tenant",
          "acme-builders",
          "--file",
          importFixture("workbook.xlsx"),
          "--all"
        )
        expect(failed(bad)[0]).toMatch(/^Error: The file cannot be read as CSV: it is not a text file/)
        expect(failed(yield* cli("contacts", "import", "--tenant", "nobody", "--file", excel, "--all"))).toEqual([
          "Error: There is no tenant with the code nobody."
        ])
      })
    )

    it.live(
      "contacts verify queues an imported subcontractor's verification, and names what it refuses",
      () =>
        Effect.gen(function* () {
          const noScheme = failed(yield* cli("contacts", "verify", "--tenant", "acme-builders", "--code", "johnsmit"))
          expect(noScheme.join("\n")).toContain("accountsOfficeReference")
          process.exitCode = undefined
          expect(succeeded(yield* cli("tenants", "cis-scheme", "--tenant", "acme-builders"))).toEqual([
            "acme-builders has no CIS scheme registration: it cannot file returns or verify subcontractors."
          ])
          const scheme = ["--employer-reference", "450/Z9", "--accounts-office-reference", "450PE00923437"]
          succeeded(yield* cli("tenants", "cis-scheme", "--tenant", "acme-builders", ...scheme))
          // HMRC's request carries the contractor's own UTR (its CIS details).
          const noUtr = failed(yield* cli("contacts", "verify", "--tenant", "acme-builders", "--code", "johnsmit"))
          expect(noUtr.join("\n")).toContain("contractor's own UTR")
          process.exitCode = undefined
          yield* Effect.gen(function* () {
            const ada = yield* (yield* Users).byEmail(Email.make("ada@example.com"))
            yield* (yield* TenantSettings)
              .setCisDetails({
                type: "Company",
                tradingName: "Acme Builders Ltd",
                utr: "8456789123"
              })
              .pipe(asMember(ada, "acme-builders"))
          }).pipe(Effect.provide(AppLive), configured)
          const noCredentials = failed(
            yield* cli("contacts", "verify", "--tenant", "acme-builders", "--code", "johnsmit")
          )
          expect(noCredentials.join("\n")).toContain("hmrcCredentials")
          process.exitCode = undefined
          expect(succeeded(yield* cli("tenants", "hmrc-credentials", "--tenant", "acme-builders"))).toEqual([
            "acme-builders has no HMRC credentials: it cannot file returns or verify subcontractors until they are set (--set)."
          ])
          // The user id and password come from standard input, never from an argument; the password is never printed.
          const password = "Pa55-from-stdin"
          const set = yield* cli(
            "tenants",
            "hmrc-credentials",
            "--tenant",
            "acme-builders",
            "--set",
            "--filer",
            "Agent"
          ).pipe(
            Effect.provideService(SecretInput, {
              read: () => Effect.succeed({ userId: " 123456789012 ", password: Redacted.make(password) })
            })
          )
          expect(succeeded(set)).toEqual([
            expect.stringMatching(
              /^acme-builders files with Government Gateway user id 123456789012 as Agent; status Unchecked \(set .+\)\.$/
            )
          ])
          expect(set.stderr.join("\n")).not.toContain(password)
          expect(
            succeeded(yield* cli("contacts", "verify", "--tenant", "acme-builders", "--code", "johnsmit"))
          ).toEqual([
            "Verification of JOHNSMIT (John Smith Groundworks) requested; the server's worker sends it to the tax authority and records the answer on the contact."
          ])
          expect(failed(yield* cli("contacts", "verify", "--tenant", "acme-builders", "--code", "NOPE"))).toEqual([
            "Error: There is no contact with the code NOPE in acme-builders."
          ])
        }),
      120_000
    )

    it.live(
      "tenants hmrc-credentials shows them without the password; reseal-credentials re-encrypts nothing under one key",
      () =>
        Effect.gen(function* () {
          const shown = succeeded(yield* cli("tenants", "hmrc-credentials", "--tenant", "acme-builders"))
          expect(shown).toEqual([
            expect.stringMatching(
              /^acme-builders files with Government Gateway user id 123456789012 as Agent; status Unchecked \(set .+\)\.$/
            )
          ])
          expect(shown.join("\n")).not.toContain("Pa55-from-stdin")
          expect(succeeded(yield* cli("tenants", "reseal-credentials"))).toEqual([
            "Re-encrypted 0 tenants' HMRC passwords under the current CREDENTIALS_KEY."
          ])
        }),
      120_000
    )
  })
  it.live("webhooks list, test, deliveries and retry work on a tenant's webhooks, and name what they refuse", () =>
    Effect.gen(function* () {
      expect(succeeded(yield* cli("webhooks", "list", "--tenant", "acme-builders"))).toEqual([
        "acme-builders has no webhooks."
      ])
      // Made through the API's use case; the host does not resolve, so its deliveries fail.
      const webhook = yield* Effect.gen(function* () {
        const ada = yield* (yield* Users).byEmail(Email.make("ada@example.com"))
        const { webhook } = yield* (yield* Webhooks)
          .create({
            url: "https://hooks.cisbook.invalid/in",
            eventTypes: ["contact.created"]
          })
          .pipe(asMember(ada, "acme-builders"))
        return webhook
      }).pipe(Effect.provide(AppLive), configured)
      const [header, row] = succeeded(yield* cli("webhooks", "list", "--tenant", "acme-builders"))
      expect(header?.split(/\s{2,}/)).toEqual(["ID", "URL", "EVENTS", "ENABLED", "CREATED"])
      expect(row?.split(/\s{2,}/).slice(0, 4)).toEqual([webhook.id, webhook.url, "contact.created", "yes"])

      const queued = succeeded(yield* cli("webhooks", "test", "--tenant", "acme-builders", "--webhook", webhook.id))
      expect(queued).toHaveLength(1)
      const deliveryId = /delivery ([0-9a-f-]{36}) \(Pending\)/.exec(queued[0] ?? "")?.[1] ?? ""
      expect(deliveryId).not.toBe("")
      expect(failed(yield* cli("webhooks", "retry", "--tenant", "acme-builders", "--delivery", deliveryId))).toEqual([
        `Error: The delivery ${deliveryId} is Pending: only a Failed delivery can be retried.`
      ])
      process.exitCode = undefined

      yield* Effect.flatMap(WebhookDispatch, (dispatch) => dispatch.dispatchDue(10, Duration.seconds(60))).pipe(
        Effect.provide(AppLive),
        configured
      )
      const [, failedRow, summary] = succeeded(
        yield* cli("webhooks", "deliveries", "--tenant", "acme-builders", "--status", "Failed")
      )
      expect(failedRow?.split(/\s{2,}/).slice(0, 5)).toEqual([deliveryId, webhook.id, "test.webhook", "Failed", "1"])
      expect(summary).toBe("1 of 1, newest first.")
      expect(succeeded(yield* cli("webhooks", "retry", "--tenant", "acme-builders", "--delivery", deliveryId))).toEqual(
        [`Delivery ${deliveryId} is Pending again; a running server's dispatcher sends it at once.`]
      )
      expect(
        succeeded(yield* cli("webhooks", "deliveries", "--tenant", "acme-builders", "--status", "Failed"))
      ).toEqual(["No deliveries."])
      expect(failed(yield* cli("webhooks", "test", "--tenant", "nobody-here", "--webhook", webhook.id))).toEqual([
        "Error: There is no tenant with the code nobody-here."
      ])
    })
  )

  it.live("returns draft shows the month's lines, totals and warnings as tables", () =>
    Effect.gen(function* () {
      expect(succeeded(yield* cli("returns", "draft", "--tenant", "acme-builders", "--period", "2026-03-05"))).toEqual([
        "Draft return of acme-builders for the tax month ending 2026-03-05, due 2026-03-19.",
        "No payment to a CIS subcontractor in the month: a nil return.",
        "No warnings."
      ])
      yield* Effect.gen(function* () {
        const created = yield* (yield* Contacts)
          .create({ name: "Roofers", isSupplier: true, isCisSubcontractor: true })
          .pipe(asSupport("acme-builders"))
        const verification = new Verification({
          ...notVerified,
          status: "Verified",
          taxTreatment: "Net",
          verificationNumber: "V1234567890",
          verifiedAt: new Date("2026-01-10T10:00:00Z"),
          source: "Manual"
        })
        yield* (yield* ContactRepo).update(new Contact({ ...created, verification }))
        const invoices = yield* PurchaseInvoices
        const bill = yield* invoices
          .create({
            contact: created.code,
            number: "R-1",
            issueDate: "2026-02-01",
            dueDate: "2026-02-28",
            subtotal: 256700,
            vat: 0,
            materials: 256700
          })
          .pipe(asSupport("acme-builders"))
        yield* invoices.addPayment(bill.id, { date: "2026-02-06", amount: 256700 }).pipe(asSupport("acme-builders"))
      }).pipe(Effect.provide(AppLive), configured)
      const out = succeeded(yield* cli("returns", "draft", "--tenant", "acme-builders", "--period", "2026-03-05"))
      expect(out[0]).toBe("Draft return of acme-builders for the tax month ending 2026-03-05, due 2026-03-19.")
      expect(out[1]?.split(/\s{2,}/)).toEqual([
        "CONTACT",
        "NAME",
        "UTR",
        "TREATMENT",
        "PAYMENTS",
        "GROSS",
        "MATERIALS",
        "DEDUCTED"
      ])
      expect(out[2]?.split(/\s{2,}/).slice(1)).toEqual(["Roofers", "Net", "1", "£2,567.00", "£2,567.00", "£0.00"])
      expect(out[3]?.split(/\s{2,}/)).toEqual(["TOTAL", "1", "£2,567.00", "£2,567.00", "£0.00"])
      expect(out[4]?.split(/\s{2,}/)).toEqual(["CONTACT", "WARNING", "WHAT TO CHECK"])
      expect(out[5]).toContain("MaterialsNotBelowGross")
      expect(
        failed(yield* cli("returns", "draft", "--tenant", "acme-builders", "--period", "2026-03-06"))[0]
      ).toContain("Must be the last day of a tax month")
    })
  )

  it.live("returns list shows a tenant's monthly returns, latest tax month first", () =>
    Effect.gen(function* () {
      expect(succeeded(yield* cli("returns", "list", "--tenant", "acme-builders"))).toEqual([
        "acme-builders has filed no monthly return."
      ])
      const filed = yield* Effect.gen(function* () {
        const tenant = yield* (yield* Tenants).forSupport("acme-builders")
        const line = new ReturnLine({
          contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
          contactCode: "BRICKS",
          name: "Bricks Ltd",
          utr: "2234567890",
          verificationNumber: "V1234567890",
          taxTreatment: "Net",
          grossAmount: 100000,
          materials: 40000,
          deducted: 12000
        })
        const r = new MonthlyReturn({
          id: MonthlyReturnId.make("00000000-0000-4000-8000-0000000000a1"),
          tenantId: tenant.id,
          periodEnd: "2026-06-05",
          status: "Submitted",
          contractor: new ReturnContractor({ name: "Acme", utr: "8456789123" }),
          lines: [line],
          nilReturn: false,
          inactive: false,
          declarations: storedDeclarations(new Date("2026-06-10T10:00:00Z")),
          submittedAt: new Date("2026-06-10T10:00:00Z"),
          acceptedAt: null,
          rejectionReason: null,
          invoiced: false
        })
        yield* (yield* MonthlyReturnRepo).insert(r)
        return r
      }).pipe(Effect.provide(AppLive), configured)
      const [header, row, summary] = succeeded(yield* cli("returns", "list", "--tenant", "acme-builders"))
      expect(header?.split(/\s{2,}/)).toEqual([
        "ID",
        "PERIOD END",
        "STATUS",
        "SUBCONTRACTORS",
        "DEDUCTED",
        "SUBMITTED",
        "ANSWER",
        "HMRC CORRELATION ID",
        "IRMARK"
      ])
      expect(row?.split(/\s{2,}/)).toEqual([
        filed.id,
        "2026-06-05",
        "Submitted",
        "1",
        "£120.00",
        "2026-06-10T10:00:00.000Z"
      ])
      expect(summary).toBe("1 return, latest tax month first.")
      // Accepted: HMRC's receipt, the correlation id and the IRmark sent.
      const acceptedAt = new Date("2026-06-10T10:05:00Z")
      yield* Effect.gen(function* () {
        const repo = yield* MonthlyReturnRepo
        const [claimed] = yield* repo.claimDue(new Date("2026-06-10T10:01:00Z"), acceptedAt, 10)
        const sending = { correlationId: "C0FFEE", endpoint: "https://hmrc.example/poll", pollIntervalSeconds: 10 }
        yield* repo.recordSent(
          claimed!,
          { ...sending, irmark: "IRMARK/SENT=", credentialsSetAt: acceptedAt, gatewayTest: false },
          acceptedAt
        )
        const receipt = new HmrcReceipt({
          correlationId: sending.correlationId,
          irmark: "IRMARK/SENT=",
          message: "Received.",
          receivedAt: acceptedAt,
          irmarkVerified: true
        })
        yield* repo.record(claimed!, { _tag: "Accepted", at: acceptedAt, receipt, gatewayTest: false })
      }).pipe(Effect.provide(AppLive), configured)
      const [, accepted] = succeeded(yield* cli("returns", "list", "--tenant", "acme-builders"))
      expect(accepted?.split(/\s{2,}/).slice(2)).toEqual([
        "Accepted",
        "1",
        "£120.00",
        "2026-06-10T10:00:00.000Z",
        "2026-06-10T10:05:00.000Z",
        "C0FFEE",
        "IRMARK/SENT="
      ])
      // Back as it was filed: the later tests (billing) count this tenant's accepted returns.
      yield* Effect.flatMap(
        SqlClient.SqlClient,
        (
          sql
        ) => sql`UPDATE monthly_returns SET status = 'Submitted', accepted_at = NULL, next_attempt_at = submitted_at,
          correlation_id = NULL, sent_at = NULL, response_endpoint = NULL, poll_interval_seconds = NULL, irmark = NULL,
          receipt_message = NULL, receipt_at = NULL, receipt_irmark_verified = NULL WHERE id = ${filed.id}`
      ).pipe(Effect.provide(AppLive), configured)
      // Only a return held because HMRC's answer is unknown is released, and only by a person.
      const refusedRelease = failed(yield* cli("returns", "release", "--tenant", "acme-builders", "--id", filed.id))
      expect(refusedRelease[0]).toContain("is Submitted, not held because HMRC's answer is unknown")
      process.exitCode = undefined
      yield* Effect.gen(function* () {
        const repo = yield* MonthlyReturnRepo
        const [claimed] = yield* repo.claimDue(new Date("2026-06-10T10:01:00Z"), acceptedAt, 10)
        yield* repo.record(claimed!, {
          _tag: "Held",
          heldFor: "UnknownAnswer",
          reason: "HMRC's answer to this return is unknown"
        })
      }).pipe(Effect.provide(AppLive), configured)
      const [, held] = succeeded(yield* cli("returns", "list", "--tenant", "acme-builders"))
      expect(held?.split(/\s{2,}/).slice(2, 3)).toEqual(["Held"])
      expect(succeeded(yield* cli("returns", "release", "--tenant", "acme-builders", "--id", filed.id))).toEqual([
        `The return ${filed.id} for the tax month ending 2026-06-05 is Submitted again: the return filer sends it to HMRC afresh.`
      ])
      const [, releasedRow] = succeeded(yield* cli("returns", "list", "--tenant", "acme-builders"))
      expect(releasedRow?.split(/\s{2,}/).slice(2, 3)).toEqual(["Submitted"])
      expect(failed(yield* cli("returns", "release", "--tenant", "acme-builders", "--id", "nope"))[0]).toContain(
        "no monthly return nope"
      )
      process.exitCode = undefined
      const help = succeeded(yield* cli("returns", "release", "--help")).join("\n")
      expect(help).toContain("HMRC's answer to it is unknown")
      expect(help).toContain("--tenant")
      expect(help).toContain("--id")
      expect(failed(yield* cli("returns", "list", "--tenant", "nobody-here"))[0]).toContain("nobody-here")
      process.exitCode = undefined
    })
  )

  it.live(
    "tenants cis-scheme shows a tenant's CIS scheme registration and sets it; returns list shows a nil return",
    () =>
      Effect.gen(function* () {
        // Set without a date, the registration began the day it was first set.
        const registered = (yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ registeredFrom: string }>`SELECT registered_from FROM tenant_settings s
            JOIN tenants t ON t.id = s.tenant_id WHERE t.code = 'acme-builders'`
        ).pipe(Effect.provide(AppLive), configured))[0]!.registeredFrom
        expect(registered).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        expect(succeeded(yield* cli("tenants", "cis-scheme", "--tenant", "acme-builders"))).toEqual([
          `acme-builders files under employer reference 450/Z9, Accounts Office reference 450PE00923437, registered with HMRC for CIS from ${registered}.`
        ])
        const onlyOne = failed(
          yield* cli("tenants", "cis-scheme", "--tenant", "acme-builders", "--employer-reference", "123/AB45678")
        )
        expect(onlyOne[0]).toContain("Give both")
        process.exitCode = undefined
        const bad = failed(
          yield* cli(
            "tenants",
            "cis-scheme",
            "--tenant",
            "acme-builders",
            "--employer-reference",
            "123/AB45678",
            "--accounts-office-reference",
            "123PA12345678"
          )
        )
        expect(bad.join("\n")).toContain("accountsOfficeReference")
        process.exitCode = undefined
        const set = yield* cli(
          "tenants",
          "cis-scheme",
          "--tenant",
          "acme-builders",
          "--employer-reference",
          "123/ab45678",
          "--accounts-office-reference",
          "123pw12345678"
        )
        const shown = [
          `acme-builders files under employer reference 123/AB45678, Accounts Office reference 123PW12345678, registered with HMRC for CIS from ${registered}.`
        ]
        expect(succeeded(set)).toEqual(shown)
        expect(succeeded(yield* cli("tenants", "cis-scheme", "--tenant", "acme-builders"))).toEqual(shown)

        yield* Effect.gen(function* () {
          const tenant = yield* (yield* Tenants).forSupport("acme-builders")
          yield* (yield* MonthlyReturnRepo).insert(
            new MonthlyReturn({
              id: MonthlyReturnId.make("00000000-0000-4000-8000-0000000000a2"),
              tenantId: tenant.id,
              periodEnd: "2026-07-05",
              status: "Submitted",
              contractor: new ReturnContractor({ name: "Acme", utr: "8456789123" }),
              lines: [],
              nilReturn: true,
              inactive: true,
              declarations: storedDeclarations(new Date("2026-07-10T10:00:00Z"), true),
              submittedAt: new Date("2026-07-10T10:00:00Z"),
              acceptedAt: null,
              rejectionReason: null,
              invoiced: false
            })
          )
        }).pipe(Effect.provide(AppLive), configured)
        const [, nil] = succeeded(yield* cli("returns", "list", "--tenant", "acme-builders"))
        expect(nil?.split(/\s{2,}/).slice(1, 5)).toEqual([
          "2026-07-05",
          "Submitted",
          "none: nil return, inactive",
          "£0.00"
        ])
      })
  )

  it.live("mail list shows the outbox by status, and mail retry queues a failed mail again", () =>
    Effect.gen(function* () {
      expect(succeeded(yield* cli("mail", "list"))).toEqual(["No mail."])
      const queued = yield* Effect.gen(function* () {
        const tenant = yield* (yield* Tenants).forSupport("acme-builders")
        const { transaction } = yield* Transactor
        return yield* transaction(
          Effect.flatMap(TenantMail, (mail) =>
            mail.queue({
              tenantId: tenant.id,
              type: "PaymentReminder",
              to: Email.make("accounts@customer.example"),
              values: {
                tenantName: tenant.name,
                contactName: "Customer",
                invoiceNumber: "INV-000001",
                issueDate: "2026-04-06",
                dueDate: "2026-05-06",
                total: 100,
                amountDue: 100,
                reference: null,
                daysOverdue: 3
              },
              actingUserEmail: null
            })
          )
        )
      }).pipe(Effect.provide(AppLive), configured)
      const [header, row, summary] = succeeded(yield* cli("mail", "list", "--status", "Queued"))
      expect(header?.split(/\s{2,}/).slice(0, 6)).toEqual(["ID", "TENANT", "TYPE", "TO", "STATUS", "ATTEMPTS"])
      expect(row?.split(/\s{2,}/)).toContain(queued.id)
      expect(row?.split(/\s{2,}/)).toEqual(
        expect.arrayContaining(["PaymentReminder", "accounts@customer.example", "Queued", "0"])
      )
      expect(summary).toBe("1 mail, newest first.")
      expect(failed(yield* cli("mail", "retry", "--id", queued.id))).toEqual([
        `Error: There is no failed mail with the id ${queued.id}: only a Failed mail can be retried.`
      ])
      process.exitCode = undefined

      // An SMTP server that refuses the mail for good.
      const refusing = Layer.succeed(
        MailTransport,
        MailTransport.of({ send: () => Effect.succeed({ _tag: "Rejected", error: "550 No such user" }) })
      )
      yield* Effect.flatMap(MailDispatch, (dispatch) => dispatch.sendDue(10, Duration.seconds(60))).pipe(
        Effect.provide(MailDispatch.Default.pipe(Layer.provide(refusing))),
        Effect.provide(AppLive),
        configured
      )
      const [, failedRow] = succeeded(yield* cli("mail", "list", "--status", "Failed", "--limit", "5"))
      expect(failedRow?.split(/\s{2,}/)).toEqual(expect.arrayContaining([queued.id, "Failed", "1", "550 No such user"]))
      expect(succeeded(yield* cli("mail", "retry", "--id", queued.id))).toEqual([
        `Queued mail ${queued.id} again; a running server's mail sender sends it.`
      ])
      expect(succeeded(yield* cli("mail", "list", "--status", "Failed"))).toEqual(["No mail."])
      expect(failed(yield* cli("mail", "list", "--limit", "0"))).toEqual([
        "Error: Must be a whole number from 1 to 500",
        "  limit: Must be a whole number from 1 to 500"
      ])
    })
  )

  it.live("billing mandate shows what support sees of a user's mandate and billing address", () =>
    Effect.gen(function* () {
      expect(succeeded(yield* cli("billing", "mandate", "--email", "ada@example.com"))).toEqual([
        "ada@example.com: mandate NotStarted. Billing address: (no billing address)"
      ])
      yield* Effect.gen(function* () {
        const ada = yield* (yield* Users).byEmail(Email.make("ada@example.com"))
        yield* (yield* BillingProfiles)
          .put({
            companyName: "Lovelace Builders Ltd",
            billingEmail: "accounts@lovelace.example",
            addressLine1: "1 Analytical Row",
            postcode: "nw1 6xe",
            country: "GB"
          })
          .pipe(asUser(ada))
        const at = new Date("2026-11-20T10:00:00.000Z")
        const flow = new Mandate({
          id: MandateId.make("00000000-0000-4000-8000-00000000cafe"),
          userId: ada.id,
          status: "InProgress",
          sessionToken: "sess_cli",
          redirectFlowId: "RE0000000CLI",
          redirectUrl: "https://pay.example/flow/RE0000000CLI",
          reference: null,
          accountHolderName: null,
          bankName: null,
          accountNumberEnding: null,
          nextPossibleChargeDate: null,
          createdAt: at,
          expiresAt: flowExpiry(at),
          completedAt: null
        })
        const repo = yield* MandateRepo
        yield* repo.reserve(flow, at)
        yield* repo.replace(
          flow,
          new Mandate({
            ...flow,
            status: "Active",
            reference: "MD0000000CLI",
            accountHolderName: "Ada Lovelace",
            bankName: "BARCLAYS BANK PLC",
            accountNumberEnding: "11",
            nextPossibleChargeDate: "2026-11-25",
            completedAt: at
          })
        )
      }).pipe(Effect.provide(AppLive), configured)
      const [header, row, address] = succeeded(yield* cli("billing", "mandate", "--email", "ADA@example.com"))
      expect(header?.split(/\s{2,}/)).toEqual([
        "STATUS",
        "REFERENCE",
        "ACCOUNT HOLDER",
        "BANK",
        "ACCOUNT",
        "NEXT CHARGE",
        "REDIRECT FLOW",
        "STARTED"
      ])
      expect(row?.split(/\s{2,}/)).toEqual([
        "Active",
        "MD0000000CLI",
        "Ada Lovelace",
        "BARCLAYS BANK PLC",
        "******11",
        "2026-11-25",
        "RE0000000CLI",
        "2026-11-20T10:00:00.000Z"
      ])
      expect(address).toBe("Billing address: Lovelace Builders Ltd, accounts@lovelace.example, NW1 6XE GB")
      expect(failed(yield* cli("billing", "mandate", "--email", "nobody@example.com"))).toEqual([
        "Error: There is no user with the email address nobody@example.com."
      ])
    })
  )

  it.live(
    "billing run bills each owner's accepted returns once, a line per invoice and a summary; billing invoices lists them",
    () =>
      Effect.gen(function* () {
        yield* Effect.gen(function* () {
          const grace = yield* (yield* Users).create({ email: Email.make("grace@example.com"), name: "Grace Hopper" })
          const { tenant } = yield* (yield* Tenants)
            .create({
              code: TenantCode.make("hopper-builds"),
              name: "Hopper Builds Ltd",
              email: null
            })
            .pipe(asUser(grace))
          const line = (n: number) =>
            new ReturnLine({
              contactId: ContactId.make(`00000000-0000-4000-8000-00000000000${n}`),
              contactCode: `SUB${n}`,
              name: `Subcontractor ${n}`,
              utr: "2234567890",
              verificationNumber: null,
              taxTreatment: "Gross",
              grossAmount: 100000,
              materials: 0,
              deducted: 0
            })
          const id = MonthlyReturnId.make("00000000-0000-4000-8000-0000000000b1")
          yield* (yield* MonthlyReturnRepo).insert(
            new MonthlyReturn({
              id,
              tenantId: tenant.id,
              periodEnd: "2026-06-05",
              status: "Submitted",
              contractor: new ReturnContractor({ name: "Hopper Builds Ltd", utr: "8456789123" }),
              lines: [line(1), line(2)],
              nilReturn: false,
              inactive: false,
              declarations: storedDeclarations(new Date("2026-06-10T10:00:00Z")),
              submittedAt: new Date("2026-06-10T10:00:00Z"),
              acceptedAt: null,
              rejectionReason: null,
              invoiced: false
            })
          )
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE monthly_returns SET status = 'Accepted', accepted_at = now(), next_attempt_at = NULL
          WHERE tenant_id = ${tenant.id} AND id = ${id}`
        }).pipe(Effect.provide(AppLive), configured)

        const [invoiceLine, summary, ...rest] = succeeded(yield* cli("billing", "run", "--date", "2026-07-01"))
        expect(rest).toEqual([])
        expect(invoiceLine?.split(/\s{2,}/)).toEqual([
          expect.stringMatching(/^CB-\d{6}$/),
          "2026-07-01",
          "grace@example.com",
          "£2.40",
          "WaitingForMandate"
        ])
        expect(summary).toBe(
          "Issued 1 invoice dated 2026-07-01; finished 1 (£2.40 including VAT): 0 collecting by direct debit, 1 waiting for a mandate."
        )
        expect(succeeded(yield* cli("billing", "run", "--date", "2026-07-02"))).toEqual([
          "Issued 0 invoices dated 2026-07-02; finished 0 (£0.00 including VAT): 0 collecting by direct debit, 0 waiting for a mandate."
        ])
        const [header, row, ...more] = succeeded(yield* cli("billing", "invoices", "--email", "Grace@example.com"))
        expect(more).toEqual([])
        expect(header?.split(/\s{2,}/)).toEqual([
          "NUMBER",
          "ISSUED",
          "PERIOD",
          "SUBTOTAL",
          "VAT",
          "TOTAL",
          "PAYMENT",
          "REFERENCE",
          "PDF"
        ])
        expect(row?.split(/\s{2,}/)).toEqual([
          invoiceLine?.split(/\s{2,}/)[0],
          "2026-07-01",
          "2026-06-05 to 2026-06-05",
          "£2.00",
          "£0.40",
          "£2.40",
          "WaitingForMandate",
          "yes"
        ])
        expect(succeeded(yield* cli("billing", "invoices", "--email", "ada@example.com"))).toEqual([
          "ada@example.com: no billing invoices."
        ])
        expect(failed(yield* cli("billing", "run", "--date", "2026-02-30"))).toEqual([
          "Error: date: Must be a date as YYYY-MM-DD, for example 2026-04-05.",
          "  date: Must be a date as YYYY-MM-DD, for example 2026-04-05"
        ])
      })
  )

  it.live("billing events lists the provider's events received, newest first, with how each was handled", () =>
    Effect.gen(function* () {
      expect(succeeded(yield* cli("billing", "events"))).toEqual(["No provider events."])
      const event = (id: string, resourceType: string, action: string, resourceId: string) => ({
        id,
        createdAt: new Date("2026-11-25T10:00:00.000Z"),
        resourceType,
        action,
        resourceId,
        links: { [resourceType.slice(0, -1)]: resourceId },
        details: {},
        metadata: {}
      })
      const receivedAt = yield* Effect.gen(function* () {
        const events = yield* ProviderEventReceiving
        const work = yield* ProviderEventHandling
        yield* events.receive({ notificationId: "WB1", events: [event("EV1", "payments", "failed", "PM_UNKNOWN")] })
        const claimed = yield* work.claim(10, Duration.minutes(1))
        yield* work.record(yield* Effect.forEach(claimed, work.attempt))
        yield* events.receive({ notificationId: "WB2", events: [event("EV2", "mandates", "cancelled", "MD_UNKNOWN")] })
        return (yield* events.list(10)).map((e) => e.receivedAt.toISOString())
      }).pipe(Effect.provide(AppLive), configured)
      const [header, newest, oldest, summary] = succeeded(yield* cli("billing", "events"))
      expect(header?.split(/\s{2,}/)).toEqual(["EVENT", "RESOURCE TYPE", "ACTION", "RESOURCE", "RECEIVED", "HANDLED"])
      expect(newest?.split(/\s{2,}/)).toEqual(["EV2", "mandates", "cancelled", "MD_UNKNOWN", receivedAt[0], "pending"])
      expect(oldest?.split(/\s{2,}/)).toEqual(["EV1", "payments", "failed", "PM_UNKNOWN", receivedAt[1], "ignored"])
      expect(summary).toBe("2 events, newest first.")
      expect(succeeded(yield* cli("billing", "events", "--limit", "1"))).toHaveLength(3)
      expect(failed(yield* cli("billing", "events", "--limit", "501"))).toEqual([
        "Error: Must be a whole number from 1 to 500",
        "  limit: Must be a whole number from 1 to 500"
      ])
    })
  )

  it.live(
    "returns obligations shows each tax month since the registration: status, due date, filing date and penalty",
    () =>
      Effect.gen(function* () {
        yield* Effect.flatMap(TenantSettings, (settings) =>
          settings.setCisScheme({
            employerReference: "123/AB45678",
            accountsOfficeReference: "123PW12345678",
            registeredFrom: "2026-04-06"
          })
        ).pipe(asSupport("acme-builders"), Effect.provide(AppLive), configured)
        const today = ukCalendarDate(new Date())
        const [header, may, june, july, august, september, summary] = succeeded(
          yield* cli(
            "returns",
            "obligations",
            "--tenant",
            "acme-builders",
            "--from",
            "2026-01-05",
            "--to",
            "2026-09-05"
          )
        )
        expect(header?.split(/\s{2,}/)).toEqual(["PERIOD END", "DUE", "STATUS", "FILED ON", "PENALTY", "RETURN"])
        // Nothing filed for May: overdue, its penalty as of today (the draft deducts nothing).
        const mayPenalty = lateFilingPenalty("2026-05-19", today, 0)
        expect(may?.split(/\s{2,}/)).toEqual(["2026-05-05", "2026-05-19", "Overdue", formatMoney(mayPenalty)])
        expect(june?.split(/\s{2,}/).slice(0, 2)).toEqual(["2026-06-05", "2026-06-19"])
        expect(june).toContain("00000000-0000-4000-8000-0000000000a1")
        // July's nil return declared the contractor inactive: nothing is due for six months.
        expect(july?.split(/\s{2,}/)).toEqual([
          "2026-07-05",
          "2026-07-19",
          "Filed",
          "2026-07-10",
          "£0.00",
          "00000000-0000-4000-8000-0000000000a2"
        ])
        expect(august?.split(/\s{2,}/)).toEqual(["2026-08-05", "2026-08-19", "Inactive", "£0.00"])
        expect(september?.split(/\s{2,}/).slice(2)).toEqual(["Inactive", "£0.00"])
        expect(summary).toMatch(/^5 tax months, oldest first; 1 overdue; penalties £[\d,]+\.\d\d in all\.$/)
        const bad = failed(
          yield* cli(
            "returns",
            "obligations",
            "--tenant",
            "acme-builders",
            "--from",
            "2026-06-05",
            "--to",
            "2026-05-05"
          )
        )
        expect(bad.join("\n")).toContain("from")
        process.exitCode = undefined
      })
  )
})
