import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { createHmac } from "node:crypto"
import { postgresDatabase, sharedEmbeddedDatabase } from "@cisbook/adapters/sql/Database"
import { temporaryPostgresUrl } from "@cisbook/adapters/sql/EphemeralDatabase"
import { migrate } from "@cisbook/adapters/sql/Migrations"
import type { Email } from "@cisbook/core/Email"
import { SANDBOX_NOTIFICATION_SECRET } from "@cisbook/adapters/gocardless/GoCardlessNotificationSecret"
import { draftInvoice } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import { BillingInvoiceId, MonthlyReturnId, TenantId } from "@cisbook/core/Ids"
import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { Transactor } from "@cisbook/core/system/Transactor"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { contactImportForm } from "@cisbook/sdk/ContactImportForm"
import { makeFetchClient } from "@cisbook/sdk/Client"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { largeImportCsv, utrFor } from "@cisbook/testkit/ImportFixtures"
import { IMPORT_BATCH_ROWS } from "@cisbook/core/contacts/ImportLimits"
import { startWebhookReceiver } from "@cisbook/testkit/WebhookReceiver"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Config, Effect, Fiber, Layer, Option, Redacted, Schedule } from "effect"
import { killNine, startServerProcess } from "./ChildServer.js"
import { deliveryCounts, queuedDeliveries } from "./QueuedDeliveries.js"
import { appOver } from "./WorkerTestApp.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const postgresUrl = Config.option(Config.redacted("CISBOOK_TEST_DATABASE_URL")).pipe(Effect.runSync)

/** A scratch directory, removed with the scope. */
const scratch = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-kill-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

/**
 * Where the server processes keep their data: a throwaway PostgreSQL database when
 * CISBOOK_TEST_DATABASE_URL is set, else PGlite in a data directory. `env` points a server at it;
 * `open` is a client of it for the test (through the server's socket while one holds PGlite).
 */
const aDatabase = Effect.gen(function* () {
  const dir = yield* scratch
  if (Option.isSome(postgresUrl)) {
    const url = yield* temporaryPostgresUrl(postgresUrl.value)
    return { dir, env: { DATABASE_URL: Redacted.value(url) }, open: Layer.orDie(postgresDatabase(url)) } as const
  }
  const dataDir = path.join(dir, "data")
  return { dir, env: { DATA_DIR: dataDir }, open: Layer.orDie(sharedEmbeddedDatabase(dataDir)) } as const
})

/** Runs `effect` over the use cases on the database (migrated first), then lets it go. */
const withApp = <Out, A, E, R>(open: Layer.Layer<Out | SqlClient.SqlClient>, effect: Effect.Effect<A, E, R>) =>
  Effect.zipRight(migrate, effect).pipe(Effect.provide(appOver(open)), Effect.scoped)

/** A user with an API key, owning a tenant. */
const anOwner = Effect.gen(function* () {
  const owner = yield* (yield* Users).create({ email: "crash@example.com" as Email, name: "Crash" })
  const code = "kill-nine"
  const { tenant } = yield* (yield* Tenants)
    .create({
      code: TenantCode.make(code),
      name: "Kill Nine",
      email: null
    })
    .pipe(asUser(owner))
  const { key } = yield* (yield* ApiKeys).issue("crash test").pipe(asUser(owner))
  return { owner, code, tenantId: tenant.id, key } as const
})

const within = (seconds: number) => Schedule.spaced("20 millis").pipe(Schedule.upTo(`${seconds} seconds`))

describe("kill -9 of the server process", () => {
  it.scopedLive(
    "mid-import: afterwards every row is whole or absent, and the restarted server leaves no upload behind",
    () =>
      Effect.gen(function* () {
        const db = yield* aDatabase
        const uploads = path.join(db.dir, "uploads")
        const env = {
          ...db.env,
          UPLOAD_DIR: uploads,
          WEBHOOK_DISPATCHER: "false",
          WEBHOOK_ALLOW_PRIVATE_TARGETS: "true"
        }
        const first = yield* startServerProcess(env)
        const { code, key, tenantId } = yield* withApp(
          db.open,
          Effect.tap(anOwner, ({ code, owner }) =>
            // Each contact's event queues a delivery here, in the contact's transaction.
            Effect.flatMap(Webhooks, (w) =>
              w
                .create({ url: "http://127.0.0.1:9/events", eventTypes: ["contact.created"] })
                .pipe(asMember(owner, code))
            )
          )
        )
        const rows = 10_000
        const csv = largeImportCsv(rows)
        const api = yield* makeFetchClient({ baseUrl: first.url, credentials: { apiKey: key } })
        const importing = yield* api.contactImport
          .importContacts({
            path: { tenant: code },
            payload: contactImportForm(csv, { rowIds: Array.from({ length: rows }, (_, i) => i + 1) })
          })
          .pipe(Effect.either, Effect.fork)
        // The first batch is in: kill it while the rest are on their way.
        yield* api.contacts.listContacts({ path: { tenant: code }, urlParams: { limit: 1 } }).pipe(
          Effect.filterOrFail((page) => page.totalCount > 0),
          Effect.retry(within(20))
        )
        expect(fs.readdirSync(uploads)).not.toEqual([])
        yield* killNine(first.child)
        const cut = yield* Fiber.join(importing)
        expect(cut._tag).toBe("Left")

        const second = yield* startServerProcess(env)
        expect(fs.readdirSync(uploads)).toEqual([])
        const after = yield* makeFetchClient({ baseUrl: second.url, credentials: { apiKey: key } })
        const listed = yield* after.contacts.listContacts({ path: { tenant: code }, urlParams: { limit: 1 } })

        const stored = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const contacts = yield* sql<{
            name: string
            email: string | null
            cisUtr: string | null
            cisFirstName: string | null
            cisLastName: string | null
            verificationNumber: string | null
            vatRegistered: boolean
          }>`
            SELECT name, email, cis_utr, cis_first_name, cis_last_name, verification_number, vat_registered
            FROM contacts WHERE tenant_id = ${tenantId}`
          const [events] = yield* sql<{ count: number }>`
            SELECT count(*)::int AS count FROM events WHERE tenant_id = ${tenantId} AND type = 'contact.created'`
          const [deliveries] = yield* sql<{ count: number }>`
            SELECT count(*)::int AS count FROM webhook_deliveries WHERE tenant_id = ${tenantId}`
          const [unused] = yield* sql<{ count: number }>`
            SELECT count(*)::int AS count FROM contact_codes c
            WHERE c.tenant_id = ${tenantId}
              AND NOT EXISTS (SELECT 1 FROM contacts WHERE tenant_id = c.tenant_id AND code = c.code)`
          return { contacts, events: events!.count, deliveries: deliveries!.count, unusedCodes: unused!.count }
        }).pipe(Effect.provide(db.open), Effect.scoped)

        const count = stored.contacts.length
        expect(listed.totalCount).toBe(count)
        // Killed mid-way: some batches in, not all; each batch's contacts are one transaction.
        expect(count).toBeGreaterThan(0)
        expect(count).toBeLessThan(rows)
        expect(count % IMPORT_BATCH_ROWS).toBe(0)
        // Every contact there is whole: each member as its row gave it, with its event and delivery.
        for (const contact of stored.contacts) {
          const n = Number(/ (\d+)$/.exec(contact.name)![1])
          const i = n - 1
          expect(contact).toEqual({
            name: contact.name,
            email: `${contact.cisFirstName!.toLowerCase()}.${n}@example.com`,
            cisUtr: utrFor(i),
            cisFirstName: expect.any(String),
            cisLastName: expect.any(String),
            verificationNumber: i % 3 === 0 ? `V${String(1_000_000_000 + i)}` : null,
            vatRegistered: i % 2 === 0
          })
          expect(contact.name.startsWith(`${contact.cisFirstName} ${contact.cisLastName} `)).toBe(true)
        }
        expect(stored.events).toBe(count)
        expect(stored.deliveries).toBe(count)
        // Codes are issued a few batches ahead of the batches being written, each batch's in a
        // transaction of its own: those whose contacts were never written stay issued, unused.
        expect(stored.unusedCodes % IMPORT_BATCH_ROWS).toBe(0)
        expect(stored.unusedCodes).toBeLessThanOrEqual(5 * IMPORT_BATCH_ROWS)
      }),
    { timeout: 300_000 }
  )

  it.scopedLive(
    "mid-dispatch, in the middle of a batch: after a restart every delivery has reached the receiver at least once and is recorded once",
    () =>
      Effect.gen(function* () {
        const db = yield* aDatabase
        const receiver = yield* startWebhookReceiver
        // A slow receiver: many deliveries are in flight when the kill comes.
        yield* receiver.answerWith(() => ({ status: 204, delayMs: 150 }))
        const env = {
          ...db.env,
          UPLOAD_DIR: path.join(db.dir, "uploads"),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
          WEBHOOK_POLL_INTERVAL_MS: "20",
          WEBHOOK_CONCURRENCY: "10",
          // The shortest lease there is: what the killed process held is sent again 30 s after its claim.
          WEBHOOK_LEASE_SECONDS: "30",
          MAIL_SENDER: "false",
          VERIFICATION_WORKER: "false",
          RETURN_FILER: "false"
        }
        const first = yield* startServerProcess(env)
        const events = 120
        const { eventIds, tenantId } = yield* withApp(
          db.open,
          Effect.gen(function* () {
            const { code, owner, tenantId } = yield* anOwner
            const { secret } = yield* (yield* Webhooks)
              .create({ url: `${receiver.url}/in` })
              .pipe(asMember(owner, code))
            yield* receiver.trust(secret)
            const { transaction } = yield* Transactor
            yield* transaction(
              (yield* EventOutbox).record(
                tenantId,
                Array.from({ length: events }, (_, n) => ({ type: "contact.created" as const, data: { n } }))
              )
            )
            const sql = yield* SqlClient.SqlClient
            const rows = yield* sql<{ id: string }>`SELECT id FROM events WHERE tenant_id = ${tenantId}`
            return { eventIds: rows.map((r) => r.id), tenantId }
          })
        )
        expect(eventIds).toHaveLength(events)
        yield* receiver.waitFor(15)
        yield* killNine(first.child)
        const beforeRestart = (yield* receiver.received).length
        expect(beforeRestart).toBeLessThan(events)

        yield* startServerProcess(env)
        const reached = yield* receiver.received.pipe(
          Effect.filterOrFail((all) => new Set(all.map((r) => r.headers["webhook-id"])).size === events),
          Effect.retry(within(60)),
          Effect.orDie
        )
        expect(new Set(reached.map((r) => r.headers["webhook-id"]))).toEqual(new Set(eventIds))
        expect(reached.every((r) => r.verified === true)).toBe(true)
        // Those in flight at the kill (received, their answers never recorded) are sent again once
        // the dead process's lease runs out, and every delivery ends Succeeded.
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ count: number }>`
            SELECT count(*)::int AS count FROM webhook_deliveries
            WHERE tenant_id = ${tenantId} AND status = 'Succeeded'`
        }).pipe(
          Effect.provide(db.open),
          Effect.scoped,
          Effect.filterOrFail(([row]) => row?.count === events),
          Effect.retry(within(60)),
          Effect.orDie
        )
        const all = yield* receiver.received
        expect(all.length).toBeGreaterThan(events)
        expect(new Set(all.map((r) => r.headers["webhook-id"])).size).toBe(events)
        // Nothing doubled: a batch is recorded whole or not at all, so each delivery has the one
        // attempt that was recorded, whether before the kill or after the restart.
        const [recorded] = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ deliveries: number; attempts: number; once: number }>`
            SELECT count(*)::int AS deliveries,
              (SELECT count(*)::int FROM webhook_delivery_attempts WHERE tenant_id = ${tenantId}) AS attempts,
              count(*) FILTER (WHERE attempts = 1)::int AS once
            FROM webhook_deliveries WHERE tenant_id = ${tenantId}`
        }).pipe(Effect.provide(db.open), Effect.scoped)
        expect(recorded).toEqual({ deliveries: events, attempts: events, once: events })
      }),
    { timeout: 300_000 }
  )

  it.scopedLive(
    "mid-way through provider events: after a restart every event is applied once, each notice queued once",
    () =>
      Effect.gen(function* () {
        const db = yield* aDatabase
        const env = {
          ...db.env,
          UPLOAD_DIR: path.join(db.dir, "uploads"),
          PROVIDER_EVENTS_POLL_INTERVAL_MS: "20",
          PROVIDER_EVENTS_CONCURRENCY: "2",
          // The shortest lease there is: what the killed process held is due again 10 s after its claim.
          PROVIDER_EVENTS_LEASE_SECONDS: "10",
          WEBHOOK_DISPATCHER: "false",
          MAIL_SENDER: "false",
          VERIFICATION_WORKER: "false",
          RETURN_FILER: "false"
        }
        const first = yield* startServerProcess(env)
        const count = 200
        // One user owing `count` invoices, each collected by its own payment.
        const { payments, userId } = yield* withApp(
          db.open,
          Effect.gen(function* () {
            const user = yield* (yield* Users).create({ email: "payer@example.com" as Email, name: "Payer" })
            const invoices = yield* BillingInvoiceRepo
            const payments: Array<string> = []
            for (let i = 0; i < count; i++) {
              const draft = draftInvoice(
                { id: BillingInvoiceId.make(crypto.randomUUID()), userId: user.id, issueDate: "2026-07-01" },
                [
                  {
                    returnId: MonthlyReturnId.make(crypto.randomUUID()),
                    tenantId: TenantId.make(crypto.randomUUID()),
                    tenant: "payer",
                    tenantName: "Payer Ltd",
                    periodEnd: "2026-06-05",
                    subcontractors: 1
                  }
                ],
                100
              )
              const invoice = yield* invoices.insert(draft, new Date())
              const payment = `PMKILL${String(i).padStart(5, "0")}`
              yield* invoices.recordCollection(
                user.id,
                invoice.id,
                { paymentStatus: "Pending", paymentReference: payment, mandateReference: "MDKILL" },
                true
              )
              payments.push(payment)
            }
            return { payments, userId: user.id }
          })
        )
        // Every payment fails, told in webhooks of 100 events, as GoCardless signs them.
        for (let batch = 0; batch < count / 100; batch++) {
          const body = JSON.stringify({
            events: payments.slice(batch * 100, batch * 100 + 100).map((payment) => ({
              id: `EV${payment}`,
              created_at: new Date().toISOString(),
              resource_type: "payments",
              action: "failed",
              links: { payment },
              details: { origin: "bank", cause: "insufficient_funds" },
              metadata: {}
            })),
            meta: { webhook_id: `WBKILL${batch}` }
          })
          const answer = yield* Effect.promise(() =>
            fetch(`${first.url}/webhooks/gocardless`, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                "webhook-signature": createHmac("sha256", SANDBOX_NOTIFICATION_SECRET).update(body).digest("hex")
              },
              body
            })
          )
          expect(answer.status).toBe(204)
        }
        const counts = Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const [events] = yield* sql<{ applied: number; other: number; pending: number }>`
            SELECT count(*) FILTER (WHERE handled = 'applied')::int AS applied,
              count(*) FILTER (WHERE handled = 'pending')::int AS pending,
              count(*) FILTER (WHERE handled NOT IN ('applied', 'pending'))::int AS other
            FROM provider_events WHERE id LIKE 'EVPMKILL%'`
          const [failed] = yield* sql<{ count: number }>`
            SELECT count(*)::int AS count FROM billing_invoices WHERE user_id = ${userId} AND payment_status = 'Failed'`
          const [notices] = yield* sql<{ count: number; subjects: number }>`
            SELECT count(*)::int AS count, count(DISTINCT subject)::int AS subjects
            FROM mail_outbox WHERE user_id = ${userId} AND type = 'BillingNotice'`
          return { ...events!, failed: failed!.count, ...notices! }
        }).pipe(Effect.provide(db.open), Effect.scoped, Effect.orDie)
        // Some handled, not all: kill it there.
        const before = yield* counts.pipe(
          Effect.filterOrFail(
            (c) => c.applied > 0,
            (c) => new Error(`None applied yet: ${JSON.stringify(c)}\n${first.output()}`)
          ),
          Effect.retry(within(30)),
          Effect.orDie
        )
        yield* killNine(first.child)
        expect(before.applied).toBeLessThan(count)

        const second = yield* startServerProcess(env)
        const after = yield* counts.pipe(
          Effect.filterOrFail(
            (c) => c.applied === count,
            (c) => new Error(`Not all applied: ${JSON.stringify(c)}\n${second.output()}`)
          ),
          Effect.retry(within(60)),
          Effect.orDie
        )
        // Each event applied once: no duplicate, each invoice failed once, one notice each.
        expect(after).toEqual({ applied: count, pending: 0, other: 0, failed: count, count, subjects: count })
      }),
    { timeout: 300_000 }
  )

  it.scopedLive(
    "mid-way through statement deliveries: after a restart each statement is delivered once, with one event",
    () =>
      Effect.gen(function* () {
        const db = yield* aDatabase
        const env = {
          ...db.env,
          UPLOAD_DIR: path.join(db.dir, "uploads"),
          STATEMENT_DELIVERY_POLL_INTERVAL_MS: "20",
          STATEMENT_DELIVERY_CONCURRENCY: "2",
          // The shortest lease there is: what the killed process held is due again 10 s after its claim.
          STATEMENT_DELIVERY_LEASE_SECONDS: "10",
          WEBHOOK_DISPATCHER: "false",
          MAIL_SENDER: "false",
          VERIFICATION_WORKER: "false",
          RETURN_FILER: "false",
          PROVIDER_EVENTS_WORKER: "false"
        }
        const first = yield* startServerProcess(env)
        const count = 200
        const { contractor, subcontractor } = yield* withApp(db.open, queuedDeliveries(count))
        const counts = deliveryCounts(contractor.id, subcontractor.id).pipe(Effect.provide(db.open), Effect.scoped)
        // Some delivered, not all: kill it there.
        const before = yield* counts.pipe(
          Effect.filterOrFail(
            (c) => c.delivered > 0,
            (c) => new Error(`None delivered yet: ${JSON.stringify(c)}\n${first.output()}`)
          ),
          Effect.retry(within(30)),
          Effect.orDie
        )
        yield* killNine(first.child)
        expect(before.delivered).toBeLessThan(count)

        const second = yield* startServerProcess(env)
        const after = yield* counts.pipe(
          Effect.filterOrFail(
            (c) => c.delivered === count,
            (c) => new Error(`Not all delivered: ${JSON.stringify(c)}\n${second.output()}`)
          ),
          Effect.retry(within(60)),
          Effect.orDie
        )
        // Each once: one statement per return line in the subcontractor's tenant, one event each.
        expect(after).toEqual({ statements: count, sources: count, events: count, delivered: count, due: 0 })
      }),
    { timeout: 300_000 }
  )
})
