import { PortsLive } from "@cisbook/adapters/AppLive"
import { RateLimitsOff } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import type { Email } from "@cisbook/core/Email"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { BillingRun } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { Users } from "@cisbook/core/users/Users"
import { HttpAppLive } from "@cisbook/http/HttpAppLive"
import { ProviderEventsWorkerLive } from "@cisbook/http/workers/ProviderEventsWorker"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { createServer } from "node:http"
import * as v8 from "node:v8"
import * as vm from "node:vm"
import { chosenDatabases, type Database, sqlOver } from "../Databases.js"
import { loadTest, type LoadResult } from "../LoadTest.js"
import { seedBilling, seedLaterReturn } from "./Seed.js"
import { freePort } from "../FreePort.js"
import { startCpuProfile } from "../CpuProfile.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const MiB = 1024 * 1024
const USERS = Number(process.env["BENCH_BILLING_USERS"] ?? 2_000)
const MONTHS = Number(process.env["BENCH_BILLING_MONTHS"] ?? 5)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 16)
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 5)
/** Invoices of the user whose list refreshes many Pending invoices on one mandate. */
const PENDING_INVOICES = Number(process.env["BENCH_BILLING_PENDING_INVOICES"] ?? 12)
/** That user: even, so with a mandate; not one of the two other lists' users. */
const MANY_PENDING_USER = 4
/** A file to write the process's CPU profile of the billing run to. */
const CPU_PROFILE = process.env["BENCH_CPU_PROFILE"]

// The heap a run leaves behind is read after a full collection, which needs gc() exposed.
v8.setFlagsFromString("--expose-gc")
const collectGarbage = vm.runInNewContext("gc") as () => void
const heapAfterCollection = () => {
  collectGarbage()
  return process.memoryUsage().heapUsed
}

interface BillingResult {
  readonly database: string
  readonly users: number
  readonly returns: number
  readonly seconds: number
  readonly invoicingSeconds: number
  readonly issued: number
  readonly payments: number
  readonly pdfMiB: number
  readonly rssMiB: number
  readonly retainedMiB: number
  /** How long after the runs the sandbox's webhooks took to be delivered and handled (null: not within SETTLE_SECONDS). */
  readonly settledSeconds: number | null
  /** Each list's load, and the server's CPU (ms a second) in the second before it, with no request. */
  readonly lists: ReadonlyArray<readonly [string, LoadResult, number]>
}

/** How long the bench waits for the server's background work to end before loading the lists. */
const SETTLE_SECONDS = 120

/**
 * Seconds until the sandbox has no webhook left to deliver and the server no provider event left
 * to handle (polled every half second), or null after SETTLE_SECONDS.
 */
const settled = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const started = Date.now()
  while (Date.now() - started < SETTLE_SECONDS * 1000) {
    const [left] = yield* sql<{ readonly webhooks: number; readonly events: number }>`
      SELECT
        (SELECT count(*) FROM gocardless_sandbox_webhooks WHERE next_attempt_at IS NOT NULL) AS webhooks,
        (SELECT count(*) FROM provider_events WHERE handled = 'pending') AS events`
    if (left?.webhooks === 0 && left.events === 0) return (Date.now() - started) / 1000
    yield* Effect.sleep("500 millis")
  }
  yield* Effect.logWarning("Not settled: what was left").pipe(Effect.annotateLogs(yield* leftOver))
  return null
})

/** The sandbox's webhooks not delivered yet, and the provider events not handled yet, by how they stand. */
const leftOver = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const webhooks = yield* sql<{ readonly attempts: number; readonly lastError: string | null; readonly n: number }>`
    SELECT attempts, last_error, count(*)::int AS n FROM gocardless_sandbox_webhooks
    WHERE next_attempt_at IS NOT NULL GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5`
  const events = yield* sql<{ readonly attempts: number; readonly kind: string; readonly n: number }>`
    SELECT attempts, resource_type || ' ' || action AS kind, count(*)::int AS n FROM provider_events
    WHERE handled = 'pending' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5`
  return { webhooks: JSON.stringify(webhooks), events: JSON.stringify(events) }
})

/** The process's CPU time in one second without requests, in ms. */
const idleCpuMillisPerSecond = Effect.gen(function* () {
  const before = process.cpuUsage()
  yield* Effect.sleep("1 second")
  const cpu = process.cpuUsage(before)
  return (cpu.user + cpu.system) / 1000
})

const measure = (database: Database, port: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const seededAt = Date.now()
    yield* seedBilling(USERS, MONTHS)
    yield* Effect.logWarning(
      `${database.label}: seeded ${USERS} users, ${USERS * MONTHS} returns in ${(Date.now() - seededAt) / 1000} s`
    )

    // The run, with the memory of this process (which also serves the sandbox provider) sampled every 10 ms.
    const heapBefore = heapAfterCollection()
    const rssBefore = process.memoryUsage.rss()
    let peak = rssBefore
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10)
    const profiler = yield* Effect.promise(() => startCpuProfile(CPU_PROFILE))
    const started = Date.now()
    let invoicedAt = started
    const report = yield* (yield* BillingRun).run("2026-07-01", (progress) =>
      Effect.sync(() => {
        if (progress.phase === "Invoicing" && progress.done === progress.total) invoicedAt = Date.now()
      })
    )
    const seconds = (Date.now() - started) / 1000
    yield* Effect.promise(() => profiler.stop())
    clearInterval(timer)
    peak = Math.max(peak, process.memoryUsage.rss())
    const retainedMiB = (heapAfterCollection() - heapBefore) / MiB
    if (report.unfinished > 0) return yield* Effect.dieMessage(`${report.unfinished} invoices left unfinished`)
    const [stats] = yield* sql<{ readonly invoices: number; readonly payments: number; readonly pdfBytes: number }>`
      SELECT count(*) AS invoices, count(payment_reference) AS payments, coalesce(sum(length(pdf)), 0) AS pdf_bytes
      FROM billing_invoices`
    const [left] = yield* sql<{ readonly returns: number }>`
      SELECT count(*) AS returns FROM monthly_returns WHERE status = 'Accepted' AND billing_invoice_id IS NULL`
    if (stats?.invoices !== USERS || left?.returns !== 0)
      return yield* Effect.dieMessage("the run did not bill everyone")

    // One user gets more invoices, each collected on the same mandate: one run a later month.
    for (let month = MONTHS + 1; month < MONTHS + PENDING_INVOICES; month++) {
      yield* seedLaterReturn(MANY_PENDING_USER, month)
      yield* (yield* BillingRun).run(`2027-${String(month - MONTHS).padStart(2, "0")}-01`, () => Effect.void)
    }
    const [pending] = yield* sql<{ readonly invoices: number }>`
      SELECT count(*) AS invoices FROM billing_invoices
      WHERE user_id = md5(${`user${MANY_PENDING_USER}`})::uuid AND payment_status = 'Pending'`
    if (pending?.invoices !== PENDING_INVOICES)
      return yield* Effect.dieMessage(`user ${MANY_PENDING_USER} has ${pending?.invoices} Pending invoices`)

    // GET /me/billing/invoices of users collecting by direct debit (their mandate's payments are
    // listed by the provider when not read within the last minute: the first requests ask, sharing
    // one call, and the rest answer what it read) and of a user waiting for a mandate (no provider call).
    // What the server does meanwhile (the sandbox's webhooks for the run's payments, handled by
    // the server) is not the list's work: it is let finish, and what is left is measured.
    const settledSeconds = yield* settled
    const lists: Array<readonly [string, LoadResult]> = []
    const idleCpu: Array<number> = []
    for (const [label, n] of [
      ["invoices list, 1 Pending", 2],
      [`invoices list, ${PENDING_INVOICES} Pending on one mandate`, MANY_PENDING_USER],
      ["invoices list, WaitingForMandate", 1]
    ] as const) {
      const user = yield* (yield* Users).byEmail(`payer${n}@bench.example` as Email)
      const { key } = yield* (yield* ApiKeys).issue("bench").pipe(asUser(user))
      idleCpu.push(yield* idleCpuMillisPerSecond)
      const result = yield* Effect.promise(() =>
        loadTest({
          url: `http://127.0.0.1:${port}/me/billing/invoices`,
          headers: { "x-api-key": key },
          connections: CONNECTIONS,
          seconds: SECONDS
        })
      )
      if (result.errors > 0 || result.non2xx > 0) return yield* Effect.dieMessage(`${label}: errors`)
      lists.push([label, result])
    }
    return {
      database: database.label,
      users: USERS,
      returns: USERS * MONTHS,
      seconds,
      invoicingSeconds: (invoicedAt - started) / 1000,
      issued: report.issued,
      payments: stats.payments,
      pdfMiB: stats.pdfBytes / MiB,
      rssMiB: (peak - rssBefore) / MiB,
      retainedMiB,
      settledSeconds,
      lists: lists.map(([label, result], i) => [label, result, idleCpu[i]!] as const)
    } satisfies BillingResult
  })

const run = async (database: Database) => {
  const port = await freePort()
  // The sandbox provider is this server's own: DirectDebitLive reads where it is from PUBLIC_BASE_URL.
  process.env["PUBLIC_BASE_URL"] = `http://127.0.0.1:${port}`
  const Sql = sqlOver(database)
  // The server's provider events worker too: without it the events of the sandbox's webhooks
  // would wait in the inbox for ever, and the lists would never be loaded after them.
  const App = Layer.merge(HttpAppLive.pipe(Layer.provide(RateLimitsOff)), ProviderEventsWorkerLive).pipe(
    Layer.provideMerge(UseCasesLive.pipe(Layer.provideMerge(PortsLive))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" })),
    Layer.provideMerge(Sql)
  )
  return Effect.runPromise(
    measure(database, port).pipe(
      Effect.provide(App),
      Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)),
      Effect.ensuring(Effect.promise(() => database.close()))
    )
  )
}

const runTable = (rows: ReadonlyArray<BillingResult>) =>
  [
    "| database | users | returns | invoices | payments | invoicing s | run s | PDFs MiB | peak RSS growth MiB | heap kept MiB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.database} | ${r.users} | ${r.returns} | ${r.issued} | ${r.payments} | ${r.invoicingSeconds.toFixed(1)} | ${r.seconds.toFixed(1)} | ${r.pdfMiB.toFixed(1)} | ${r.rssMiB.toFixed(0)} | ${r.retainedMiB.toFixed(1)} |`
    )
  ].join("\n")

const listTable = (rows: ReadonlyArray<BillingResult>) =>
  [
    "| database | scenario | req/s | p50 ms | p99 ms | server CPU µs/req | idle server CPU ms/s before |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows.flatMap((r) =>
      r.lists.map(
        ([label, l, idle]) =>
          `| ${r.database} | ${label} | ${l.requestsPerSecond.toFixed(0)} | ${l.p50.toFixed(1)} | ${l.p99.toFixed(1)} | ${l.cpuMicrosPerRequest.toFixed(0)} | ${idle.toFixed(0)} |`
      )
    )
  ].join("\n")

export const main = async () => {
  const results: Array<BillingResult> = []
  for (const open of chosenDatabases()) {
    const result = await run(await open())
    console.error(runTable([result]).split("\n")[2])
    results.push(result)
  }
  console.log(
    `\nBilling run: ${USERS} users with ${MONTHS} accepted returns each, one invoice per user with its PDF, a payment through the sandbox provider (served by the same process, over HTTP) for every other user\n\n${runTable(results)}\n\nGET /me/billing/invoices, ${CONNECTIONS} connections, ${SECONDS} s each, once the sandbox's webhooks were handled (${results.map((r) => (r.settledSeconds === null ? `not within ${SETTLE_SECONDS} s` : `after ${r.settledSeconds.toFixed(1)} s`)).join(", ")})\n\n${listTable(results)}\n\nPeak RSS of the process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB\n`
  )
}
