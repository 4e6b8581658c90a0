import { PortsLive } from "@cisbook/adapters/AppLive"
import { contactColumns } from "@cisbook/adapters/sql/ContactListQuery"
import { paymentsBetween } from "@cisbook/adapters/sql/SubcontractorPaymentsSql"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { RateLimitsOff } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import type { Email } from "@cisbook/core/Email"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { MonthlyReturns } from "@cisbook/core/returns/MonthlyReturns"
import { SubcontractorPayments } from "@cisbook/core/returns/SubcontractorPayments"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { asUser } from "@cisbook/core/users/ActingAs"
import { Users } from "@cisbook/core/users/Users"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { HttpAppLive } from "@cisbook/http/HttpAppLive"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { createServer } from "node:http"
import { withCpuProfile } from "../CpuProfile.js"

// `pnpm bench draft`: the drafted return of one contractor's tax month ending 2026-11-05, with
// BENCH_SUBCONTRACTORS (default 500) verified CIS subcontractors paid BENCH_PAYMENTS (default
// 10,000) times in the month, and a payment of each bill in the month before and the month after,
// and as many in each of the BENCH_HISTORY (default 12) tax months before (a year of history), among
// BENCH_NEIGHBOURS (default 20) other contractors with three months of payments (the tables are shared); GET .../monthly-returns/draft over HTTP, one request after another, then the use case in
// process, and the payments' read alone; then the plans of the month's payments and of the contacts' read.
// BENCH_CPU_PROFILE: a file to write the CPU profile of the HTTP requests to.

const SUBCONTRACTORS = Number(process.env["BENCH_SUBCONTRACTORS"] ?? 500)
const PAYMENTS = Number(process.env["BENCH_PAYMENTS"] ?? 10000)
const NEIGHBOURS = Number(process.env["BENCH_NEIGHBOURS"] ?? 20)
const HISTORY = Number(process.env["BENCH_HISTORY"] ?? 12)
const REQUESTS = Number(process.env["BENCH_REQUESTS"] ?? 30)
const CPU_PROFILE = process.env["BENCH_CPU_PROFILE"]
const PERIOD_END = "2026-11-05"
const MONTH_START = "2026-10-06"
/** Payments in the month per bill: each bill also has one in the month before and one after. */
const PAID_IN_MONTH = 4

/**
 * The subcontractors (codes S0001...), verified a month ago, one in five gross; their bills of
 * £7,200 with £1,200 materials and the Net deduction of £1,200 (nothing for a Gross one), each
 * paid in six equal parts: one in the tax month before, four in the month, one in the month after.
 */
const seed = (tenantId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const bills = Math.ceil(PAYMENTS / PAID_IN_MONTH)
    yield* sql.unsafe(
      `INSERT INTO contact_codes (tenant_id, code)
       SELECT $1::uuid, 'S' || lpad(n::text, 4, '0') FROM generate_series(1, $2::int) n`,
      [tenantId, SUBCONTRACTORS]
    )
    yield* sql.unsafe(
      `INSERT INTO contacts (tenant_id, id, code, name, is_customer, is_supplier, is_cis_subcontractor,
         vat_registered, cis_type, cis_first_name, cis_last_name, cis_utr, verification_status,
         verification_number, tax_treatment, verified_at, verification_source, created_at, updated_at)
       SELECT $1::uuid, gen_random_uuid(), 'S' || lpad(n::text, 4, '0'), 'Subcontractor ' || n, false, true, true,
         false, 'SoleTrader', 'Sam', 'Builder ' || n, lpad((2000000000 + n)::text, 10, '0'), 'Verified',
         'V' || lpad(n::text, 10, '0'), CASE WHEN n % 5 = 0 THEN 'Gross' ELSE 'Net' END,
         now() - interval '30 days', 'Hmrc', now(), now()
       FROM generate_series(1, $2::int) n`,
      [tenantId, SUBCONTRACTORS]
    )
    yield* sql.unsafe(
      `INSERT INTO purchase_invoices (tenant_id, id, number, contact_id, issue_date, due_date, subtotal, vat,
         cis_deduction, materials, tax_treatment, amount_paid, created_at)
       SELECT $1::uuid, gen_random_uuid(), 'B-' || lpad(n::text, 6, '0'), c.id, date '2026-09-01', date '2026-10-01',
         720000, 0, CASE WHEN c.tax_treatment = 'Gross' THEN 0 ELSE 120000 END, 120000, c.tax_treatment,
         CASE WHEN c.tax_treatment = 'Gross' THEN 720000 ELSE 600000 END, now()
       FROM generate_series(1, $3::int) n
       JOIN contacts c ON c.tenant_id = $1::uuid AND c.code = 'S' || lpad((1 + n % $2::int)::text, 4, '0')`,
      [tenantId, SUBCONTRACTORS, bills]
    )
    // Part k of 6 of each bill: 0 in the month before, 1 to 4 spread over the month, 5 after.
    yield* sql.unsafe(
      `INSERT INTO purchase_invoice_payments (tenant_id, id, invoice_id, date, amount, gross_amount, materials,
         deducted, created_at)
       SELECT i.tenant_id, gen_random_uuid(), i.id,
         CASE k WHEN 0 THEN date '2026-09-20' WHEN 5 THEN date '2026-11-20'
           ELSE $2::date + (abs(hashtext(i.id::text || k)) % 31) END,
         i.amount_paid / 6, 120000, 20000, i.cis_deduction / 6, now()
       FROM purchase_invoices i CROSS JOIN generate_series(0, 5) k
       WHERE i.tenant_id = $1::uuid`,
      [tenantId, MONTH_START]
    )
  })

/**
 * The tax months before: each subcontractor's bills of £4,800 (£800 materials, the Net deduction
 * £800), each paid in four equal parts in its month, as many payments a month as in the measured one.
 */
const seedHistory = (tenantId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const bills = Math.ceil(PAYMENTS / PAID_IN_MONTH)
    yield* sql.unsafe(
      `INSERT INTO purchase_invoices (tenant_id, id, number, contact_id, issue_date, due_date, subtotal, vat,
         cis_deduction, materials, tax_treatment, amount_paid, created_at)
       SELECT $1::uuid, gen_random_uuid(), 'H' || m || '-' || lpad(n::text, 6, '0'), c.id, date '2025-09-01',
         date '2025-10-01', 480000, 0, CASE WHEN c.tax_treatment = 'Gross' THEN 0 ELSE 80000 END, 80000,
         c.tax_treatment, CASE WHEN c.tax_treatment = 'Gross' THEN 480000 ELSE 400000 END, now()
       FROM generate_series(1, $3::int) m CROSS JOIN generate_series(1, $4::int) n
       JOIN contacts c ON c.tenant_id = $1::uuid AND c.code = 'S' || lpad((1 + n % $2::int)::text, 4, '0')`,
      [tenantId, SUBCONTRACTORS, HISTORY, bills]
    )
    // Bill Hm-... is paid in the m-th tax month before the measured one.
    yield* sql.unsafe(
      `INSERT INTO purchase_invoice_payments (tenant_id, id, invoice_id, date, amount, gross_amount, materials,
         deducted, created_at)
       SELECT i.tenant_id, gen_random_uuid(), i.id,
         ($2::date - make_interval(months => split_part(substr(i.number, 2), '-', 1)::int))::date
           + (abs(hashtext(i.id::text || k)) % 28),
         i.amount_paid / 4, 120000, 20000, i.cis_deduction / 4, now()
       FROM purchase_invoices i CROSS JOIN generate_series(1, 4) k
       WHERE i.tenant_id = $1::uuid AND i.number LIKE 'H%'`,
      [tenantId, MONTH_START]
    )
  })

const percentiles = (timings: Array<number>) => {
  const sorted = [...timings].sort((a, b) => a - b)
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
  return { p50: at(50), p99: at(99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length }
}

/** Each call's time, and this process's CPU time over them all (the server's, the client's and the driver's). */
interface Timed {
  readonly timings: Array<number>
  readonly cpuMs: number
}

/** `calls` calls of `call`, one after another. */
const timed = <E, R>(calls: number, call: Effect.Effect<unknown, E, R>): Effect.Effect<Timed, E, R> =>
  Effect.gen(function* () {
    const timings: Array<number> = []
    const cpuBefore = process.cpuUsage()
    for (let i = 0; i < calls; i++) {
      const before = performance.now()
      yield* call
      timings.push(performance.now() - before)
    }
    const cpu = process.cpuUsage(cpuBefore)
    return { timings, cpuMs: (cpu.user + cpu.system) / 1000 }
  })

const row = (name: string, { cpuMs, timings }: Timed) => {
  const { mean, p50, p99 } = percentiles(timings)
  return `| ${name} | ${mean.toFixed(1)} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${(cpuMs / timings.length).toFixed(1)} |`
}

const explain = (statement: Effect.Effect<ReadonlyArray<{ "QUERY PLAN": string }>, unknown>) =>
  Effect.map(Effect.orDie(statement), (rows) => rows.map((r) => r["QUERY PLAN"]))

const measure = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const users = yield* Users
  const tenants = yield* Tenants
  const started = Date.now()
  const owner = yield* users.create({ email: "bench@example.com" as Email, name: "Bench" })
  const { tenant } = yield* tenants
    .create({ code: TenantCode.make("bench-main"), name: "Bench Builders", email: null })
    .pipe(asUser(owner))
  for (let i = 1; i <= NEIGHBOURS; i++) {
    const { tenant: neighbour } = yield* tenants
      .create({ code: TenantCode.make(`bench-${i}`), name: `Neighbour ${i}`, email: null })
      .pipe(asUser(owner))
    yield* seed(neighbour.id)
  }
  yield* seed(tenant.id)
  yield* seedHistory(tenant.id)
  // As autovacuum leaves tables that have a history: statistics, and the visibility map an
  // index-only scan needs.
  yield* sql`VACUUM ANALYZE contacts`
  yield* sql`VACUUM ANALYZE purchase_invoices`
  yield* sql`VACUUM ANALYZE purchase_invoice_payments`
  const [counted] = yield* sql<{ payments: number; inMonth: number }>`
    SELECT count(*)::int AS payments, (count(*) FILTER (WHERE date BETWEEN ${MONTH_START} AND ${PERIOD_END}))::int AS in_month
    FROM purchase_invoice_payments WHERE tenant_id = ${tenant.id}`
  yield* Effect.logWarning(
    `seeded ${NEIGHBOURS + 1} contractors, each with ${SUBCONTRACTORS} subcontractors, ${counted?.payments} payments (${counted?.inMonth} in the month) in ${(Date.now() - started) / 1000} s`
  )
  const { key } = yield* (yield* ApiKeys).issue("bench").pipe(asUser(owner))
  const server = yield* HttpServer.HttpServer
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  const url = `http://127.0.0.1:${port}/tenants/bench-main/monthly-returns/draft?periodEnd=${PERIOD_END}`
  const get = () =>
    Effect.promise(async () => {
      const response = await fetch(url, { headers: { "x-api-key": key } })
      const body = await response.text()
      return { status: response.status, body }
    })
  const probe = yield* get()
  const draft = JSON.parse(probe.body) as { lines?: Array<{ payments: Array<unknown> }> }
  const paid = draft.lines?.reduce((sum, line) => sum + line.payments.length, 0) ?? 0
  if (probe.status !== 200 || draft.lines?.length !== SUBCONTRACTORS || paid !== counted?.inMonth)
    return yield* Effect.dieMessage(`unexpected draft: ${probe.status} ${probe.body.slice(0, 500)}`)
  const lines: Array<string> = []
  const requests = timed(
    REQUESTS,
    Effect.flatMap(get(), ({ status }) => (status === 200 ? Effect.void : Effect.dieMessage(`draft: ${status}`)))
  )
  const http = yield* Effect.promise(() => withCpuProfile(CPU_PROFILE, () => Effect.runPromise(requests)))
  lines.push(row(`GET .../monthly-returns/draft, ${REQUESTS} requests, 1 connection`, http))
  yield* Effect.logWarning(lines.at(-1))
  // The use case alone, in process: what the draft costs beyond HTTP, authentication and JSON.
  const returns = yield* MonthlyReturns
  const inProcess = yield* timed(REQUESTS, returns.draft(PERIOD_END).pipe(asMember(owner, "bench-main")))
  lines.push(row(`the use case alone, in process, ${REQUESTS} calls`, inProcess))
  yield* Effect.logWarning(lines.at(-1))
  const payments = yield* SubcontractorPayments
  const read = yield* timed(REQUESTS, payments.between(tenant.id, MONTH_START, PERIOD_END))
  lines.push(row(`the month's payments read alone (the port), in process, ${REQUESTS} calls`, read))
  yield* Effect.logWarning(lines.at(-1))
  const codes = Array.from({ length: SUBCONTRACTORS }, (_, i) => `S${String(i + 1).padStart(4, "0")}`)
  // The adapter's own statement, explained.
  const [statement, parameters] = paymentsBetween(sql, tenant.id, MONTH_START, PERIOD_END).compile()
  const paymentsPlan = yield* explain(
    sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement}`, parameters)
      .withoutTransform
  )
  const contactsPlan = yield* explain(
    sql<{ "QUERY PLAN": string }>`
    EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
    SELECT ${sql.literal(contactColumns)} FROM contacts
    WHERE tenant_id = ${tenant.id} AND code = ANY(${codes}::text[])`.withoutTransform
  )
  return { lines, paymentsPlan, contactsPlan, inMonth: counted?.inMonth ?? 0 }
})

export const main = async () => {
  // Unthrottled: the benchmark's one user sends more requests than a user's budget.
  const App = HttpAppLive.pipe(
    Layer.provide(RateLimitsOff),
    Layer.provideMerge(UseCasesLive.pipe(Layer.provideMerge(PortsLive))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(EphemeralDatabase)
  )
  const { contactsPlan, inMonth, lines, paymentsPlan } = await Effect.runPromise(
    measure.pipe(Effect.provide(App), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  console.log(
    `\nThe draft of the tax month ending ${PERIOD_END}: ${SUBCONTRACTORS} subcontractors, ${inMonth} payments in the month among ${NEIGHBOURS + 1} contractors (database: ${process.env["CISBOOK_TEST_DATABASE_URL"] ? "PostgreSQL" : "PGlite"})\n`
  )
  console.log("| scenario | mean ms | p50 ms | p99 ms | CPU ms/call |\n|---|---:|---:|---:|---:|")
  console.log(lines.join("\n"))
  console.log("\nThe plan of the month's payments (SubcontractorPaymentsSql.between):\n")
  console.log(paymentsPlan.join("\n"))
  console.log("\nThe plan of the contacts' read (ContactRepo.findByCodes, every code):\n")
  // The 500 codes of the statement's array, shortened.
  console.log(contactsPlan.join("\n").replace(/'\{([^,}]+),[^}]*,([^,}]+)\}'/g, "'{$1,…,$2}'"))
}
