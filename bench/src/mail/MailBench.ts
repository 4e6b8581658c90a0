import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { smtpMailTransport } from "@cisbook/adapters/mail/SmtpMailTransport"
import type { Email } from "@cisbook/core/Email"
import { TenantMail } from "@cisbook/core/mail/TenantMail"
import { Transactor } from "@cisbook/core/system/Transactor"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { MailDispatch } from "@cisbook/core/mail/MailDispatch"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { mailSender } from "@cisbook/http/workers/MailSender"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { chosenDatabases, type Database } from "../Databases.js"
import { startHelperProcess } from "../HelperProcess.js"
import { runOver } from "../WorkerBenchApp.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const MAILS = Number(process.env["BENCH_MAILS"] ?? 10_000)
const CONCURRENCY = Number(process.env["BENCH_MAIL_CONCURRENCY"] ?? 100)
const CONNECTIONS = Number(process.env["BENCH_SMTP_CONNECTIONS"] ?? 10)

/** The SMTP server in its own process, and where to ask it what it got. */
const startSink = Effect.map(
  startHelperProcess(path.join(path.dirname(fileURLToPath(import.meta.url)), "SmtpSinkProcess.ts")),
  ({ firstLine }) => {
    const [smtpPort, statsPort] = firstLine.split(" ")
    return { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, statsUrl: `http://127.0.0.1:${statsPort}/stats` }
  }
)

interface Row {
  readonly database: string
  readonly mails: number
  readonly queueSeconds: number
  readonly drainSeconds: number
}

const measure = (database: Database) =>
  Effect.gen(function* () {
    const sink = yield* startSink
    const owner = yield* (yield* Users).create({ email: "bench@example.com" as Email, name: "Bench" })
    const { tenant } = yield* (yield* Tenants)
      .create({
        code: TenantCode.make("bench-mail"),
        name: "Lovelace Builders Ltd",
        email: "accounts@lovelace.example" as Email
      })
      .pipe(asUser(owner))

    // Queued as use cases queue them: rendered from the template, in transactions (500 a time).
    const mail = yield* TenantMail
    const { transaction } = yield* Transactor
    const queuing = performance.now()
    for (let done = 0; done < MAILS; done += 500) {
      yield* transaction(
        Effect.forEach(
          Array.from({ length: Math.min(500, MAILS - done) }, (_, i) => done + i),
          (n) =>
            mail.queue({
              tenantId: tenant.id,
              type: "SalesInvoice",
              to: `customer${n}@example.com` as Email,
              values: {
                tenantName: tenant.name,
                contactName: `Customer ${n}`,
                invoiceNumber: `INV-${String(n).padStart(6, "0")}`,
                issueDate: "2026-06-05",
                dueDate: "2026-07-05",
                total: 123456,
                amountDue: 100000,
                reference: null
              },
              actingUserEmail: null
            }),
          { discard: true }
        )
      )
    }
    const queueSeconds = (performance.now() - queuing) / 1000

    const sql = yield* SqlClient.SqlClient
    const started = performance.now()
    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(
      mailSender({ pollInterval: Duration.millis(10), concurrency: CONCURRENCY, lease: Duration.seconds(300) }).pipe(
        Layer.provide(MailDispatch.Default),
        Layer.provide(smtpMailTransport({ url: sink.smtpUrl, from: "mail@cisbook.example", connections: CONNECTIONS }))
      ),
      scope
    )
    for (;;) {
      const [{ n } = { n: 0 }] = yield* sql<{ n: number }>`SELECT count(*) AS n FROM mail_outbox WHERE status = 'Sent'`
      if (n >= MAILS) break
      yield* Effect.sleep("50 millis")
    }
    const drainSeconds = (performance.now() - started) / 1000
    yield* Scope.close(scope, Exit.void)
    const stats = (yield* Effect.promise(() => fetch(sink.statsUrl).then((r) => r.json()))) as {
      received: number
      unique: number
    }
    if (stats.received !== MAILS || stats.unique !== MAILS) {
      return yield* Effect.die(`The SMTP server got ${stats.received} messages, ${stats.unique} distinct, for ${MAILS}`)
    }
    yield* Effect.logWarning(`${database.label}: ${(MAILS / drainSeconds).toFixed(0)} mails/s`)
    return { database: database.label, mails: MAILS, queueSeconds, drainSeconds } satisfies Row
  }).pipe(Effect.scoped)

const run = (database: Database) => runOver(database)(measure(database))

export const main = async () => {
  const rows: Array<Row> = []
  for (const open of chosenDatabases()) {
    rows.push(await Effect.runPromise(run(await open())))
  }
  console.log(
    [
      `\nMail drained to a local SMTP server (its own process), ${MAILS} mails, ${CONCURRENCY} at once over ${CONNECTIONS} connections\n`,
      "| database | mails | queued in, s | drained in, s | mails/s |",
      "|---|---:|---:|---:|---:|",
      ...rows.map(
        (r) =>
          `| ${r.database} | ${r.mails} | ${r.queueSeconds.toFixed(2)} | ${r.drainSeconds.toFixed(2)} | ${(r.mails / r.drainSeconds).toFixed(0)} |`
      ),
      ""
    ].join("\n")
  )
}
