import { PortsLive } from "@cisbook/adapters/AppLive"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { RateLimitsOff } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import type { Email } from "@cisbook/core/Email"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { TenantSettings } from "@cisbook/core/tenants/TenantSettings"
import { Obligations } from "@cisbook/core/returns/Obligations"
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
import { loadTest, type LoadResult } from "../LoadTest.js"

// `pnpm bench obligations`: a contractor's obligations of 24 tax months over HTTP, among
// BENCH_TENANTS (default 300) other contractors with 24 returns each, every return of BENCH_LINES
// (default 200) lines; then the plan of the query that finds a tenant's returns. BENCH_CPU_PROFILE:
// a file to write the CPU profile of the run with 1 connection to.

const TENANTS = Number(process.env["BENCH_TENANTS"] ?? 300)
const LINES = Number(process.env["BENCH_LINES"] ?? 200)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 16)
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 5)
const CPU_PROFILE = process.env["BENCH_CPU_PROFILE"]
const FROM = "2024-12-05"
const TO = "2026-11-05"

/** 24 returns of each tenant, tax months FROM to TO: accepted on time, one in six late, one in eight rejected. */
const seedReturns = (tenantIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lines = JSON.stringify(
      Array.from({ length: LINES }, (_, i) => ({
        contactId: "00000000-0000-4000-8000-000000000001",
        contactCode: `SUB${i}`,
        name: `Subcontractor ${i}`,
        utr: "2234567890",
        verificationNumber: "V1234567890",
        taxTreatment: "Net",
        grossAmount: 100000,
        materials: 20000,
        deducted: 16000,
        cisDetails: null
      }))
    )
    const contractor = JSON.stringify({ name: "Bench Builders Ltd", utr: "8456789123", scheme: null })
    yield* sql`
      INSERT INTO monthly_returns (tenant_id, id, period_end, status, contractor, lines, nil_return, inactive,
        submitted_at, accepted_at, rejection_reason, declared_employment_status, declared_subcontractors_verified,
        declared_information_correct, declared_at, deducted)
      SELECT t.id, gen_random_uuid(), m.period_end,
        CASE WHEN m.n % 8 = 3 THEN 'Rejected' ELSE 'Accepted' END,
        ${contractor}::jsonb, ${lines}::jsonb, false, false,
        m.period_end + CASE WHEN m.n % 6 = 1 THEN 20 ELSE 10 END,
        CASE WHEN m.n % 8 = 3 THEN NULL ELSE m.period_end + 11 END,
        CASE WHEN m.n % 8 = 3 THEN 'UTR not known' END,
        true, true, true, m.period_end + 10, ${LINES * 16000}
      FROM unnest(${`{${tenantIds.join(",")}}`}::uuid[]) AS t (id)
      CROSS JOIN LATERAL (
        SELECT n, (${FROM}::date + make_interval(months => n))::date AS period_end FROM generate_series(0, 23) AS n
      ) AS m`
    yield* sql`ANALYZE monthly_returns`
  })

const row = (name: string, r: LoadResult) =>
  `| ${name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.cpuMicrosPerRequest / 1000).toFixed(2)} |`

const measure = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const users = yield* Users
  const tenants = yield* Tenants
  const settings = yield* TenantSettings
  const started = Date.now()
  const owner = yield* users.create({ email: "bench@example.com" as Email, name: "Bench" })
  const ids: Array<string> = []
  for (let i = 0; i < TENANTS + 1; i++) {
    const code = i === 0 ? "bench-main" : `bench-${i}`
    const { tenant } = yield* tenants
      .create({ code: TenantCode.make(code), name: `Bench ${i}`, email: null })
      .pipe(asUser(owner))
    yield* settings
      .setCisScheme({
        employerReference: "123/AB45678",
        accountsOfficeReference: "123PW12345678",
        registeredFrom: "2024-11-06"
      })
      .pipe(asMember(owner, code))
    ids.push(tenant.id)
  }
  yield* seedReturns(ids)
  const count = (yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM monthly_returns`)[0]?.count ?? 0
  yield* Effect.logWarning(`seeded ${TENANTS + 1} tenants, ${count} returns in ${(Date.now() - started) / 1000} s`)
  const { key } = yield* (yield* ApiKeys).issue("bench").pipe(asUser(owner))
  const server = yield* HttpServer.HttpServer
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  const url = `http://127.0.0.1:${port}/tenants/bench-main/monthly-returns/obligations?from=${FROM}&to=${TO}`
  const probe = yield* Effect.promise(() => fetch(url, { headers: { "x-api-key": key } }).then((r) => r.json()))
  if (!Array.isArray(probe) || probe.length !== 24)
    return yield* Effect.dieMessage(`expected 24 months: ${JSON.stringify(probe)}`)
  const lines: Array<string> = []
  for (const connections of [1, CONNECTIONS]) {
    const result = yield* Effect.promise(() =>
      withCpuProfile(connections === 1 ? CPU_PROFILE : undefined, () =>
        loadTest({ url, headers: { "x-api-key": key }, connections, seconds: SECONDS })
      )
    )
    if (result.errors > 0 || result.non2xx > 0) return yield* Effect.dieMessage("obligations: errors")
    lines.push(row(`24 tax months, ${connections} connection${connections === 1 ? "" : "s"}`, result))
    yield* Effect.logWarning(lines.at(-1))
  }
  // The use case alone, in process: what the answer costs beyond HTTP and authentication.
  const obligations = yield* Obligations
  const timings: Array<number> = []
  const cpuBefore = process.cpuUsage()
  for (let i = 0; i < 200; i++) {
    const started = performance.now()
    yield* obligations.list({ from: FROM, to: TO }).pipe(asMember(owner, "bench-main"))
    timings.push(performance.now() - started)
  }
  const cpu = process.cpuUsage(cpuBefore)
  timings.sort((a, b) => a - b)
  lines.push(
    `| the use case alone, in process, 200 calls one after another | ${(1000 / (timings.reduce((a, b) => a + b, 0) / timings.length)).toFixed(0)} | ${timings[99]!.toFixed(1)} | ${timings[197]!.toFixed(1)} | ${((cpu.user + cpu.system) / 1000 / 200).toFixed(2)} |`
  )
  const plan = yield* sql<{ "QUERY PLAN": string }>`
    EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
    SELECT id, period_end, status, nil_return, inactive, COALESCE(released_at, submitted_at) AS filed_at, deducted
    FROM monthly_returns
    WHERE tenant_id = ${ids[0]!} AND period_end BETWEEN ${"2024-06-05"} AND ${TO}
      AND status IN ('Submitted', 'Held', 'Accepted') AND NOT gateway_test
    ORDER BY period_end`.withoutTransform
  return { lines, plan: plan.map((p) => p["QUERY PLAN"]), returns: count }
})

export const main = async () => {
  // Unthrottled: the benchmark's one user sends far more requests than a user's budget.
  const App = HttpAppLive.pipe(
    Layer.provide(RateLimitsOff),
    Layer.provideMerge(UseCasesLive.pipe(Layer.provideMerge(PortsLive))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(EphemeralDatabase)
  )
  const { lines, plan, returns } = await Effect.runPromise(
    measure.pipe(Effect.provide(App), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  console.log(
    `\nObligations of 24 tax months, ${TENANTS + 1} contractors, ${returns} returns of ${LINES} lines, ${SECONDS} s each (database: ${process.env["CISBOOK_TEST_DATABASE_URL"] ? "PostgreSQL" : "PGlite"})\n`
  )
  console.log("| scenario | req/s | p50 ms | p99 ms | CPU ms/req |\n|---|---:|---:|---:|---:|")
  console.log(lines.join("\n"))
  console.log("\nThe plan of the query of a tenant's returns (30 tax months: 24 and the 6 before):\n")
  console.log(plan.join("\n"))
}
