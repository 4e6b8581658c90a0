import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import pg from "pg"
import { freePort } from "../FreePort.js"

// `pnpm bench startup`: time from spawning the server to its first `GET /health/ready` 200, and
// its resident memory after 5 s idle, started three ways (`pnpm start:tsx` through tsx, `pnpm
// start`, which runs the build, and `node dist/server.js` after `pnpm build`), on a fresh store
// (the first start migrates it) and again on the same store (a restart: the schema is current);
// then the admin CLI's `tenants list` on that store, built (`node dist/cli.js`) and through
// `pnpm cli`: wall time and CPU time (user + system, the process and its children). BENCH_WAYS
// (default all three), BENCH_DATABASES and BENCH_DATABASE_URL as for the other benchmarks;
// BENCH_RUNS (default 3).

const root = resolve(import.meta.dirname, "../../..")
const ADMIN_URL = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
const IDLE_MS = 5_000

const ways = {
  tsx: ["pnpm", ["start:tsx"]],
  pnpm: ["pnpm", ["start"]],
  node: [process.execPath, ["dist/server.js"]]
} as const satisfies Record<string, readonly [string, ReadonlyArray<string>]>

const cliWays = {
  node: [process.execPath, ["dist/cli.js", "tenants", "list"]],
  pnpm: ["pnpm", ["--silent", "cli", "tenants", "list"]]
} as const satisfies Record<string, readonly [string, ReadonlyArray<string>]>

/** One admin command on the store: ms of wall time, and ms of CPU (user + system, children included). */
const cliOnce = (way: keyof typeof cliWays, env: Record<string, string>) => {
  const [command, args] = cliWays[way]
  const started = performance.now()
  // `sh -c 'cmd; times'`: the shell reports its children's CPU once the command is done.
  const quoted = [command, ...args].map((word) => `'${word}'`).join(" ")
  const out = execFileSync("sh", ["-c", `${quoted} >/dev/null; times`], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: "Warning" },
    encoding: "utf8"
  })
  const wallMs = Math.round(performance.now() - started)
  const seconds = (text: string) => {
    const [, m = "0", s = "0"] = /(\d+)m([\d.]+)s/.exec(text) ?? []
    return Number(m) * 60 + Number(s)
  }
  const [, children = ""] = out.trim().split("\n")
  const [user = "", system = ""] = children.split(/\s+/)
  return { wallMs, cpuMs: Math.round((seconds(user) + seconds(system)) * 1000) }
}

interface Store {
  readonly env: Record<string, string>
  readonly drop: () => Promise<void>
}

const stores: Record<string, () => Promise<Store>> = {
  pglite: async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cisbook-bench-startup-"))
    return { env: { DATA_DIR: dataDir, DATABASE_URL: "" }, drop: async () => rmSync(dataDir, { recursive: true }) }
  },
  postgres: async () => {
    const name = `cisbook_bench_${randomBytes(4).toString("hex")}`
    const admin = new pg.Client({ connectionString: ADMIN_URL })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    const url = new URL(ADMIN_URL)
    url.pathname = `/${name}`
    return {
      env: { DATABASE_URL: url.toString() },
      drop: async () => {
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
        await admin.end()
      }
    }
  }
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms))

const residentKb = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** The process and its descendants (pnpm start runs pnpm, a shell, tsx and the server). */
const processTree = (pid: number): Array<number> => {
  let children: Array<number> = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    children = []
  }
  return [pid, ...children.flatMap(processTree)]
}

const exited = (child: ChildProcess) => new Promise((done) => child.once("exit", done))

/** One start: ms to ready, the server process's resident MiB, and the whole tree's. */
const startOnce = async (way: keyof typeof ways, env: Record<string, string>) => {
  const port = await freePort()
  const [command, args] = ways[way]
  const started = performance.now()
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "Warning" },
    stdio: "ignore",
    detached: true
  })
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (response) => response.status,
      () => 0
    )
    if (status === 200) break
    if (child.exitCode !== null) throw new Error(`${way}: the server exited ${child.exitCode}`)
    await sleep(25)
  }
  const readyMs = Math.round(performance.now() - started)
  await sleep(IDLE_MS)
  const sizes = processTree(child.pid!).map(residentKb)
  process.kill(-child.pid!, "SIGTERM")
  await exited(child)
  const mib = (kb: number) => Math.round(kb / 1024)
  return { readyMs, serverMiB: mib(Math.max(...sizes)), treeMiB: mib(sizes.reduce((a, b) => a + b, 0)) }
}

export const main = async () => {
  const runs = Number(process.env["BENCH_RUNS"] ?? 3)
  const databases = (process.env["BENCH_DATABASES"] ?? "postgres,pglite").split(",")
  const chosen = (process.env["BENCH_WAYS"] ?? Object.keys(ways).join(",")).split(",") as Array<keyof typeof ways>
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit" })
  for (let run = 1; run <= runs; run++) {
    for (const database of databases) {
      for (const way of chosen) {
        const store = await stores[database]!()
        try {
          const first = await startOnce(way, store.env)
          const restart = await startOnce(way, store.env)
          const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")
          console.log(JSON.stringify({ run, database, way, first, restart, load }))
          if (way === "node") {
            // The store is migrated and no server holds it: the CLI opens it itself.
            const cli = { node: cliOnce("node", store.env), pnpm: cliOnce("pnpm", store.env) }
            console.log(JSON.stringify({ run, database, cli, load }))
          }
        } finally {
          await store.drop()
        }
      }
    }
  }
}
