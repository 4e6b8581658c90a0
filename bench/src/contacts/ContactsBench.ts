import { PortsLive } from "@cisbook/adapters/AppLive"
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
import { chosenDatabases, type Database, sqlOver } from "../Databases.js"
import { loadTest } from "../LoadTest.js"
import { withCpuProfile } from "../CpuProfile.js"
import { checkClean, markdownTable, type Row } from "../Report.js"
import { startBareServer } from "./BareServer.js"
import { bareHttpApiUrl, BareHttpApiLive } from "./BareHttpApi.js"
import { seedContacts, seedNeighbours } from "./Seed.js"
import { asUser } from "@cisbook/core/users/ActingAs"
import { countingOps, OpCounter } from "../OpCount.js"

const CONTACTS = Number(process.env["BENCH_CONTACTS"] ?? 100_000)
const NEIGHBOURS = 20
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 32)
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 10)
/** A file to write the server's CPU profile of the first scenario's cisbook run to. */
const CPU_PROFILE = process.env["BENCH_CPU_PROFILE"]
/** BENCH_COUNT_OPS=1: log the Effect operations and fibers a request takes (CPU figures then do not count). */
const opCounter = process.env["BENCH_COUNT_OPS"] === "1" ? new OpCounter() : undefined
/**
 * BENCH_RATE: requests a second to send to both servers (autocannon's -R), so that both are
 * measured at the same pace: the kernel's cost of a socket write depends on whether the client
 * is waiting (a wake-up) or busy, which differs between a saturated server and a fast one.
 */
const pace = process.env["BENCH_RATE"] === undefined ? {} : { rate: Number(process.env["BENCH_RATE"]) }

/** Loads `url` for the scenario's time, at BENCH_RATE's pace when it is set. */
const load = (url: string, headers?: Readonly<Record<string, string>>) =>
  loadTest({ url, ...(headers === undefined ? {} : { headers }), connections: CONNECTIONS, seconds: SECONDS, ...pace })

/** The operations and fibers counted since the last take, a request (BENCH_COUNT_OPS). */
const logOperations = (name: string, requests: number) => {
  if (opCounter === undefined) return Effect.void
  const { byKind, fibers, operations } = opCounter.take()
  const perRequest = (n: number) => (n / requests).toFixed(1)
  const kinds = [...byKind].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind} ${perRequest(n)}`)
  return Effect.logWarning(
    `${name}: ${perRequest(operations)} operations and ${perRequest(fibers)} fibers a request (${kinds.join(", ")})`
  )
}

const contacts = "/tenants/bench-main/contacts"
/**
 * The "floor" scenarios decompose a list request's cost: the framework alone (`/health`, against
 * the bare server's constant answer), an authenticated request outside any tenant (`/me`) and one
 * of a tenant's member (`GET /tenants/{tenant}`).
 */
const allScenarios = [
  { name: "floor, /health", path: "/health", barePath: "/health", query: "" },
  { name: "floor, /me (API key)", path: "/me", barePath: "/health", query: "" },
  { name: "floor, the tenant (member)", path: "/tenants/bench-main", barePath: "/health", query: "" },
  { name: "list, first page by name", path: contacts, barePath: "/", query: "" },
  {
    name: "list, page 50 by created desc",
    path: contacts,
    barePath: "/",
    query: "?sortBy=CreatedAt&sortDesc=true&offset=500&limit=10"
  },
  { name: "search, common term (smith)", path: contacts, barePath: "/", query: "?search=smith" },
  { name: "search, rare term (12345)", path: contacts, barePath: "/", query: "?search=12345" }
]
/** BENCH_SCENARIOS: the scenarios to run, by their first word ("floor", "list", "search"); default list and search. */
const scenarios = allScenarios.filter((scenario) =>
  (process.env["BENCH_SCENARIOS"] ?? "list,search").split(",").includes(scenario.name.split(",")[0]!)
)

const measure = (database: Database) =>
  Effect.gen(function* () {
    const started = Date.now()
    const users = yield* Users
    const owner = yield* users.create({ email: "bench@example.com" as Email, name: "Bench" })
    const { tenant } = yield* (yield* Tenants)
      .create({
        code: TenantCode.make("bench-main"),
        name: "Bench",
        email: null
      })
      .pipe(asUser(owner))
    const { key } = yield* (yield* ApiKeys).issue("bench").pipe(asUser(owner))
    yield* seedContacts(tenant.id, CONTACTS)
    yield* seedNeighbours(NEIGHBOURS, CONTACTS / NEIGHBOURS)
    yield* Effect.logWarning(
      `${database.label}: seeded ${CONTACTS * 2} contacts in ${((Date.now() - started) / 1000).toFixed(1)} s`
    )

    const server = yield* HttpServer.HttpServer
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const bare = yield* Effect.promise(() => startBareServer(database.pool, tenant.id))
    // Unmeasured: the first seconds of a process are spent compiling its hot paths.
    for (const url of [`http://127.0.0.1:${port}/tenants/bench-main/contacts`, `${bare.url}/`]) {
      yield* Effect.promise(() =>
        loadTest({ url, headers: { "x-api-key": key }, connections: CONNECTIONS, seconds: 3 })
      )
    }
    const rows: Array<Row> = []
    for (const [index, scenario] of scenarios.entries()) {
      opCounter?.take()
      const cisbook = yield* Effect.promise(() =>
        withCpuProfile(index === 0 ? CPU_PROFILE : undefined, () =>
          load(`http://127.0.0.1:${port}${scenario.path}${scenario.query}`, { "x-api-key": key })
        )
      )
      yield* logOperations(scenario.name, cisbook.requests)
      const floor = yield* Effect.promise(() => load(`${bare.url}${scenario.barePath}${scenario.query}`))
      if (scenario.path === "/health") {
        // The third floor: HttpApi itself, with nothing of the service's.
        const url = yield* Effect.flatMap(Layer.build(BareHttpApiLive), (built) =>
          Effect.provide(bareHttpApiUrl, built)
        )
        opCounter?.take()
        const framework = yield* Effect.promise(() => load(`${url}/health`))
        checkClean("bare HttpApi /health", framework)
        yield* logOperations("bare HttpApi /health", framework.requests)
        yield* Effect.logWarning(
          `${scenario.name}: a bare HttpApi (one endpoint, no middleware) answers ${framework.requestsPerSecond} req/s at ${Math.round(framework.cpuMicrosPerRequest)} µs CPU/req`
        )
      }
      checkClean(`cisbook ${scenario.name}`, cisbook)
      checkClean(`bare ${scenario.name}`, floor)
      rows.push({ database: database.label, scenario: scenario.name, cisbook, bare: floor })
      yield* Effect.logWarning(markdownTable(rows.slice(-1)).split("\n")[2])
    }
    bare.server.close()
    return rows
  })

const run = (database: Database) => {
  const Sql = sqlOver(database)
  // Unthrottled: the benchmark's one user sends far more requests than a user's budget.
  const App = HttpAppLive.pipe(
    Layer.provide(RateLimitsOff),
    Layer.provideMerge(UseCasesLive.pipe(Layer.provideMerge(PortsLive))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(Sql)
  )
  return measure(database).pipe(
    Effect.scoped,
    Effect.provide(App),
    opCounter === undefined ? (effect) => effect : countingOps(opCounter),
    Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)),
    Effect.ensuring(Effect.promise(() => database.close()))
  )
}

export const main = async () => {
  const rows: Array<Row> = []
  for (const open of chosenDatabases()) {
    rows.push(...(await Effect.runPromise(run(await open()))))
  }
  const table = markdownTable(rows)
  console.log(
    `\nContacts list and search, ${CONTACTS} contacts in the tenant (+${CONTACTS} in ${NEIGHBOURS} others), ${CONNECTIONS} connections, ${SECONDS} s each\n\n${table}\n`
  )
}
