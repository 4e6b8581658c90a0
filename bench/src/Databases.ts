import { randomBytes } from "node:crypto"
import { clientOptions } from "@cisbook/adapters/sql/ClientOptions"
import { CopyInPg } from "@cisbook/adapters/sql/CopyIn"
import { MigrationsLive } from "@cisbook/adapters/sql/Migrations"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { PGlite } from "@electric-sql/pglite"
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { createPgConfig } from "@electric-sql/pglite/node-postgres"
import pg from "pg"

const ADMIN_URL = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** A database a benchmark runs on, with the pool it is reached through. */
export interface Database {
  readonly label: string
  readonly pool: pg.Pool
  /** Whether it has COPY FROM STDIN (a PostgreSQL server; PGlite has not). */
  readonly copyIn: boolean
  /** The PostgreSQL server's name for it, whose backends' CPU can be counted; none for the embedded PGlite. */
  readonly serverName: string | null
  readonly close: () => Promise<void>
}

/**
 * The @effect/sql client over the database's pool, with COPY where the server has it, as the
 * service's own database layer gives them; migrated when built, as the server's is, so that the
 * workers a benchmark's application starts find their tables.
 */
export const sqlOver = (database: Database) =>
  MigrationsLive.pipe(
    Layer.provideMerge(
      Layer.merge(
        PgClient.layerFromPool({ acquire: Effect.succeed(database.pool), ...clientOptions }),
        database.copyIn ? CopyInPg : Layer.empty
      )
    )
  )

/** A fresh database on the PostgreSQL server at BENCH_DATABASE_URL, dropped when closed. */
export const postgres = async (): Promise<Database> => {
  const name = `cisbook_bench_${randomBytes(4).toString("hex")}`
  const admin = new pg.Client({ connectionString: ADMIN_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  // Idle connections are kept, so that the CPU time of their backends can be counted (BackendCpu).
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: 10,
    idleTimeoutMillis: 0,
    types: clientOptions.types
  })
  pool.on("error", () => undefined)
  return {
    label: "PostgreSQL 15",
    pool,
    copyIn: true,
    serverName: name,
    close: async () => {
      await pool.end()
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
      await admin.end()
    }
  }
}

/** An in-memory PGlite. */
export const pglite = async (): Promise<Database> => {
  const db = await PGlite.create("memory://", { extensions: { pg_trgm, btree_gin } })
  const pool = new pg.Pool({ ...createPgConfig(db), max: 1, idleTimeoutMillis: 0, types: clientOptions.types })
  return {
    label: "PGlite (embedded)",
    pool,
    copyIn: false,
    serverName: null,
    close: async () => {
      await pool.end()
      await db.close()
    }
  }
}

/** The databases BENCH_DATABASES names (default: both), in order. */
export const chosenDatabases = () => {
  const databases = { postgres, pglite }
  return (process.env["BENCH_DATABASES"] ?? "postgres,pglite")
    .split(",")
    .map((name) => databases[name as keyof typeof databases])
}
