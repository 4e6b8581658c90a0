import { PortsLive } from "@cisbook/adapters/AppLive"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import type { Email } from "@cisbook/core/Email"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { HttpAppLive } from "@cisbook/http/HttpAppLive"
import { RateLimitsOff } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { createServer } from "node:http"
import { loadTest, type LoadResult } from "../LoadTest.js"
import { seedInvoices } from "./Seed.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const INVOICES = Number(process.env["BENCH_INVOICES"] ?? 20_000)
const CUSTOMERS = 500
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 16)
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 5)

const scenarios = [
  { name: "report, one week, JSON", query: "from=2026-06-01&to=2026-06-07", accept: "application/json" },
  { name: "report, one week, CSV", query: "from=2026-06-01&to=2026-06-07", accept: "text/csv" },
  { name: "report, one month, JSON", query: "from=2026-06-01&to=2026-06-30", accept: "application/json" },
  { name: "report, one month, CSV", query: "from=2026-06-01&to=2026-06-30", accept: "text/csv" },
  { name: "invoice list, first page", path: "sales-invoices", accept: "application/json" }
]

const row = (name: string, rows: number, r: LoadResult) =>
  `| ${name} | ${rows} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`

const measure = Effect.gen(function* () {
  const owner = yield* (yield* Users).create({ email: "bench@example.com" as Email, name: "Bench" })
  const { tenant } = yield* (yield* Tenants)
    .create({
      code: TenantCode.make("bench-main"),
      name: "Bench",
      email: null
    })
    .pipe(asUser(owner))
  const { key } = yield* (yield* ApiKeys).issue("bench").pipe(asUser(owner))
  const started = Date.now()
  const payments = yield* seedInvoices(tenant.id, CUSTOMERS, INVOICES)
  yield* Effect.logWarning(`seeded ${INVOICES} invoices, ${payments} payments in ${(Date.now() - started) / 1000} s`)
  const server = yield* HttpServer.HttpServer
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  const lines: Array<string> = []
  for (const scenario of scenarios) {
    const url = `http://127.0.0.1:${port}/tenants/bench-main/${scenario.path ?? `sales-invoices/payments?${scenario.query}`}`
    const probe = yield* Effect.promise(() =>
      fetch(url, { headers: { "x-api-key": key, accept: scenario.accept } }).then((r) => r.text())
    )
    const rows = scenario.accept === "text/csv" ? probe.split("\r\n").length - 2 : (JSON.parse(probe).length ?? 10)
    const result = yield* Effect.promise(() =>
      loadTest({
        url,
        headers: { "x-api-key": key, accept: scenario.accept },
        connections: CONNECTIONS,
        seconds: SECONDS
      })
    )
    if (result.errors > 0 || result.non2xx > 0) return yield* Effect.dieMessage(`${scenario.name}: errors`)
    lines.push(row(scenario.name, rows, result))
    yield* Effect.logWarning(lines.at(-1))
  }
  return lines
})

export const main = async () => {
  // Unthrottled: the benchmark's one user sends far more requests than a user's budget.
  const App = HttpAppLive.pipe(
    Layer.provide(RateLimitsOff),
    Layer.provideMerge(UseCasesLive.pipe(Layer.provideMerge(PortsLive))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(EphemeralDatabase)
  )
  const lines = await Effect.runPromise(
    measure.pipe(Effect.provide(App), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  console.log(
    `\nSales invoice payments report, ${INVOICES} invoices of ${CUSTOMERS} customers, ${CONNECTIONS} connections, ${SECONDS} s each (database: ${process.env["CISBOOK_TEST_DATABASE_URL"] ? "PostgreSQL" : "PGlite"})\n`
  )
  console.log("| scenario | rows | req/s | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|")
  console.log(lines.join("\n"))
}
