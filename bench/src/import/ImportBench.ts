import { PortsLive } from "@cisbook/adapters/AppLive"
import { clientOptions } from "@cisbook/adapters/sql/ClientOptions"
import { migrate } from "@cisbook/adapters/sql/Migrations"
import type { Email } from "@cisbook/core/Email"
import { TenantCode } from "@cisbook/core/Tenant"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { ApiKeys } from "@cisbook/core/usecases/ApiKeys"
import { Tenants } from "@cisbook/core/usecases/Tenants"
import { Users } from "@cisbook/core/usecases/Users"
import { HttpAppLive } from "@cisbook/http/HttpAppLive"
import { largeImportCsv } from "@cisbook/testkit/ImportFixtures"
import { PGlite } from "@electric-sql/pglite"
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { createPgConfig } from "@electric-sql/pglite/node-postgres"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import pg from "pg"

const ROWS = Number(process.env["BENCH_ROWS"] ?? 10_000)
const ADMIN_URL = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

interface Database {
  readonly label: string
  readonly pool: pg.Pool
  readonly close: () => Promise<void>
}

const postgres = async (): Promise<Database> => {
  const name = `cisbook_bench_${randomBytes(4).toString("hex")}`
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10, types: clientOptions.types })
  pool.on("error", () => undefined)
  return {
    label: "PostgreSQL 15",
    pool,
    close: async () => {
      await pool.end()
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
      await admin.end()
    }
  }
}

const pglite = async (): Promise<Database> => {
  const db = await PGlite.create("memory://", { extensions: { pg_trgm, btree_gin } })
  const pool = new pg.Pool({ ...createPgConfig(db), max: 1, idleTimeoutMillis: 0, types: clientOptions.types })
  return {
    label: "PGlite (embedded)",
    pool,
    close: async () => {
      await pool.end()
      await db.close()
    }
  }
}

/** The highest resident set size seen while `run` runs, sampled every 10 ms, less the size before it. */
const rssGrowth = async <A>(run: () => Promise<A>): Promise<{ readonly result: A; readonly growthMiB: number }> => {
  const before = process.memoryUsage.rss()
  let peak = before
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 10)
  try {
    const result = await run()
    peak = Math.max(peak, process.memoryUsage.rss())
    return { result, growthMiB: (peak - before) / 1024 / 1024 }
  } finally {
    clearInterval(timer)
  }
}

const post = async (url: string, key: string, form: FormData) => {
  const response = await fetch(url, { method: "POST", headers: { "x-api-key": key }, body: form })
  const text = await response.text()
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text.slice(0, 500)}`)
  return text
}

export interface ImportRow {
  readonly database: string
  readonly rows: number
  readonly analyseSeconds: number
  readonly importSeconds: number
  readonly totalSeconds: number
  readonly growthMiB: number
}

const measure = (database: Database, rows: number) =>
  Effect.gen(function* () {
    yield* migrate
    const owner = yield* (yield* Users).create({ email: "bench@example.com" as Email, name: "Bench" })
    yield* (yield* Tenants).create(owner, { code: TenantCode.make("bench-import"), name: "Bench", email: null })
    const { key } = yield* (yield* ApiKeys).issue(owner, "bench")
    const server = yield* HttpServer.HttpServer
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const base = `http://127.0.0.1:${port}/tenants/bench-import/contacts/import`
    const csv = new Blob([largeImportCsv(rows)], { type: "text/csv" })
    const form = (selections?: string) => {
      const f = new FormData()
      f.append("file", csv, "bench.csv")
      if (selections !== undefined) f.append("selections", selections)
      return f
    }
    const selections = JSON.stringify(Array.from({ length: rows }, (_, i) => ({ rowId: i + 1 })))
    return yield* Effect.promise(async () => {
      const { growthMiB, result } = await rssGrowth(async () => {
        const started = performance.now()
        const analysed = JSON.parse(await post(`${base}/analyze`, key, form())) as ReadonlyArray<unknown>
        const analysedAt = performance.now()
        const imported = JSON.parse(await post(base, key, form(selections))) as { imported: number }
        const done = performance.now()
        if (analysed.length !== rows || imported.imported !== rows) {
          throw new Error(`expected ${rows} rows, analysed ${analysed.length} and imported ${imported.imported}`)
        }
        return { analyse: (analysedAt - started) / 1000, import: (done - analysedAt) / 1000 }
      })
      return {
        database: database.label,
        rows,
        analyseSeconds: result.analyse,
        importSeconds: result.import,
        totalSeconds: result.analyse + result.import,
        growthMiB
      } satisfies ImportRow
    })
  })

const run = (database: Database, rows: number) => {
  const Sql = PgClient.layerFromPool({ acquire: Effect.succeed(database.pool), ...clientOptions })
  const App = HttpAppLive.pipe(
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
    "| database | rows | analyse s | import s | total s | RSS growth MiB |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.database} | ${r.rows} | ${r.analyseSeconds.toFixed(2)} | ${r.importSeconds.toFixed(2)} | ${r.totalSeconds.toFixed(2)} | ${r.growthMiB.toFixed(0)} |`
    )
  ].join("\n")

export const main = async () => {
  const databases = { postgres, pglite }
  const chosen = (process.env["BENCH_DATABASES"] ?? "postgres,pglite").split(",") as Array<keyof typeof databases>
  const sizes = (process.env["BENCH_SIZES"] ?? `1000,${ROWS}`).split(",").map(Number)
  const results: Array<ImportRow> = []
  for (const name of chosen) {
    for (const rows of sizes) {
      const result = await Effect.runPromise(run(await databases[name](), rows))
      console.error(table([result]).split("\n")[2])
      results.push(result)
    }
  }
  console.log(
    `\nContact import over HTTP: analyse then import every row of a fresh tenant, on a fresh database\n\n${table(results)}\n\nPeak RSS of the process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB\n`
  )
}
