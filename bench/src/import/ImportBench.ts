import { PortsLive } from "@cisbook/adapters/AppLive"
import { startBackendCpu } from "../BackendCpu.js"
import { startCpuProfile } from "../CpuProfile.js"
import { chosenDatabases, type Database, sqlOver } from "../Databases.js"
import type { Email } from "@cisbook/core/Email"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { HttpAppLive } from "@cisbook/http/HttpAppLive"
import { RateLimitsOff } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import { largeImportCsv } from "@cisbook/testkit/ImportFixtures"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import { createServer } from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import * as v8 from "node:v8"
import * as vm from "node:vm"
import { asUser } from "@cisbook/core/users/ActingAs"

const MiB = 1024 * 1024
const ROWS = Number(process.env["BENCH_ROWS"] ?? 10_000)

// The heap a run leaves behind is read after a full collection, which needs gc() exposed.
v8.setFlagsFromString("--expose-gc")
const collectGarbage = vm.runInNewContext("gc") as () => void

const heapAfterCollection = () => {
  collectGarbage()
  return process.memoryUsage().heapUsed
}

/**
 * How the memory of this process (the server) grows while `run` runs: the highest resident set
 * size seen (sampled every 10 ms) less the size before, and the heap still in use after a full
 * collection less the heap in use before (what the run kept).
 */
const memoryGrowth = async <A>(
  run: () => Promise<A>
): Promise<{ readonly result: A; readonly rssMiB: number; readonly retainedMiB: number }> => {
  const heapBefore = heapAfterCollection()
  const before = process.memoryUsage.rss()
  let peak = before
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 10)
  try {
    const result = await run()
    peak = Math.max(peak, process.memoryUsage.rss())
    return { result, rssMiB: (peak - before) / MiB, retainedMiB: (heapAfterCollection() - heapBefore) / MiB }
  } finally {
    clearInterval(timer)
  }
}

const runClient = promisify(execFile)
/** A file to write the server's CPU profile of the analysis and the import to. */
const CPU_PROFILE = process.env["BENCH_CPU_PROFILE"]
/** BENCH_CPU_PROFILE_STEP=import: the profile covers the import request only, not the analysis before it. */
const CPU_PROFILE_IMPORT_ONLY = process.env["BENCH_CPU_PROFILE_STEP"] === "import"
const clientScript = fileURLToPath(new URL("./ImportClient.ts", import.meta.url))

export interface ImportRow {
  readonly database: string
  readonly rows: number
  readonly analyseSeconds: number
  readonly importSeconds: number
  readonly totalSeconds: number
  /** The server process's CPU time for both requests (the database's is not in it). */
  readonly serverCpuSeconds: number
  /** The server process's CPU time for the import request alone. */
  readonly importServerCpuSeconds: number
  /** The CPU time of PostgreSQL's backends serving the benchmark's database during the import request (NaN on PGlite, which runs in the server's process). */
  readonly importDatabaseCpuSeconds: number
  readonly rssMiB: number
  readonly retainedMiB: number
}

const measure = (database: Database, rows: number) =>
  Effect.gen(function* () {
    const owner = yield* (yield* Users).create({ email: "bench@example.com" as Email, name: "Bench" })
    yield* (yield* Tenants)
      .create({ code: TenantCode.make("bench-import"), name: "Bench", email: null })
      .pipe(asUser(owner))
    const { key } = yield* (yield* ApiKeys).issue("bench").pipe(asUser(owner))
    const server = yield* HttpServer.HttpServer
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const base = `http://127.0.0.1:${port}/tenants/bench-import/contacts/import`
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-bench-import-"))
    const csvPath = path.join(dir, "bench.csv")
    fs.writeFileSync(csvPath, largeImportCsv(rows))
    const step = async (name: "analyze" | "import") => {
      const { stdout } = await runClient(process.execPath, [
        "--import",
        "tsx",
        clientScript,
        base,
        key,
        csvPath,
        String(rows),
        name
      ])
      return (JSON.parse(stdout) as { readonly seconds: number }).seconds
    }
    const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6
    return yield* Effect.promise(async () => {
      let profiler = await startCpuProfile(CPU_PROFILE_IMPORT_ONLY ? undefined : CPU_PROFILE)
      const cpuBefore = process.cpuUsage()
      const { result, retainedMiB, rssMiB } = await memoryGrowth(async () => {
        const analyse = await step("analyze")
        if (CPU_PROFILE_IMPORT_ONLY) profiler = await startCpuProfile(CPU_PROFILE)
        const cpuBeforeImport = process.cpuUsage()
        const databaseCpu = database.serverName === null ? () => Number.NaN : startBackendCpu(database.serverName)
        const imported = await step("import")
        return {
          analyse,
          import: imported,
          importCpuSeconds: cpuSeconds(process.cpuUsage(cpuBeforeImport)),
          importDatabaseCpuSeconds: databaseCpu()
        }
      })
      const cpu = process.cpuUsage(cpuBefore)
      await profiler.stop()
      fs.rmSync(dir, { recursive: true })
      return {
        serverCpuSeconds: cpuSeconds(cpu),
        importServerCpuSeconds: result.importCpuSeconds,
        importDatabaseCpuSeconds: result.importDatabaseCpuSeconds,
        database: database.label,
        rows,
        analyseSeconds: result.analyse,
        importSeconds: result.import,
        totalSeconds: result.analyse + result.import,
        rssMiB,
        retainedMiB
      } satisfies ImportRow
    })
  })

const run = (database: Database, rows: number) => {
  const Sql = sqlOver(database)
  // Unthrottled: the benchmark's one user sends far more requests than a user's budget.
  const App = HttpAppLive.pipe(
    Layer.provide(RateLimitsOff),
    Layer.provideMerge(UseCasesLive.pipe(Layer.provideMerge(PortsLive))),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(Sql)
  )
  return measure(database, rows).pipe(
    Effect.provide(App),
    Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)),
    Effect.ensuring(Effect.promise(() => database.close()))
  )
}

const table = (rows: ReadonlyArray<ImportRow>) =>
  [
    "| database | rows | analyse s | import s | total s | server CPU s | import: server CPU s | import: database CPU s | peak RSS growth MiB | heap kept MiB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.database} | ${r.rows} | ${r.analyseSeconds.toFixed(2)} | ${r.importSeconds.toFixed(2)} | ${r.totalSeconds.toFixed(2)} | ${r.serverCpuSeconds.toFixed(2)} | ${r.importServerCpuSeconds.toFixed(2)} | ${Number.isNaN(r.importDatabaseCpuSeconds) ? "in process" : r.importDatabaseCpuSeconds.toFixed(2)} | ${r.rssMiB.toFixed(0)} | ${r.retainedMiB.toFixed(1)} |`
    )
  ].join("\n")

export const main = async () => {
  const sizes = (process.env["BENCH_SIZES"] ?? `1000,${ROWS}`).split(",").map(Number)
  const results: Array<ImportRow> = []
  for (const open of chosenDatabases()) {
    for (const rows of sizes) {
      const result = await Effect.runPromise(run(await open(), rows))
      console.error(table([result]).split("\n")[2])
      results.push(result)
    }
  }
  console.log(
    `\nContact import over HTTP (client in its own process, one for each request): analyse, then import every row into a fresh tenant of a fresh database\n\n${table(results)}\n\nPeak RSS of the server process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB\n`
  )
}
