import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exitOf, freePort } from "./ChildProcesses.js"

const root = resolve(import.meta.dirname, "../../..")
const run = promisify(execFile)

const BUILD_BOUND_MS = 120_000
const READY_BOUND_MS = 60_000
const EXIT_BOUND_MS = 20_000

/** Polls `url` until it answers 200, failing with what the server wrote if it never does. */
const waitForReady = async (url: string, server: ChildProcess, output: () => string) => {
  const deadline = Date.now() + READY_BOUND_MS
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited (${server.exitCode}):\n${output()}`)
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0
    )
    if (status === 200) return
    await new Promise((wait) => setTimeout(wait, 100))
  }
  throw new Error(`${url} did not answer 200 within ${READY_BOUND_MS} ms; the server wrote:\n${output()}`)
}

describe("the built server (`pnpm build`, then `node dist/server.js`) on the embedded database", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "cisbook-built-server-"))
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: "Info",
    HOST: "127.0.0.1"
  }
  delete env["DATABASE_URL"]
  let server: ChildProcess
  let written = ""
  let base: string

  // Plain node: no tsx loader anywhere, as production runs it.
  const cli = (...args: Array<string>) =>
    run(process.execPath, [join(root, "dist/cli.js"), ...args], { cwd: root, env, timeout: 60_000 })

  beforeAll(
    async () => {
      await run(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, timeout: BUILD_BOUND_MS })
      const port = await freePort()
      env["PORT"] = String(port)
      base = `http://127.0.0.1:${port}`
      server = spawn(process.execPath, [join(root, "dist/server.js")], {
        cwd: root,
        env,
        stdio: ["ignore", "pipe", "pipe"]
      })
      server.stdout?.on("data", (chunk: Buffer) => (written += chunk.toString()))
      server.stderr?.on("data", (chunk: Buffer) => (written += chunk.toString()))
      await waitForReady(`${base}/health/ready`, server, () => written)
    },
    BUILD_BOUND_MS + READY_BOUND_MS + 5_000
  )

  afterAll(() => {
    if (server !== undefined && server.exitCode === null && server.signalCode === null) server.kill("SIGKILL")
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("serves its OpenAPI document", async () => {
    const response = await fetch(`${base}/openapi.json`)
    expect(response.status).toBe(200)
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> }
    expect(document.openapi).toMatch(/^3\./)
    expect(Object.keys(document.paths)).toContain("/health/ready")
  })

  it("takes the built CLI's commands through its socket: a user and a key that the server accepts", async () => {
    const email = `built.${process.pid}@example.com`
    const user = await cli("users", "create", "--email", email, "--name", "Grace Hopper")
    expect(user.stdout).toContain(`Created user ${email}`)
    const created = await cli("api-keys", "create", "--email", email, "--name", "built")
    const key = created.stdout.trim().split("\n").at(-1)!
    expect(key).toMatch(/^cis_/)

    const me = await fetch(`${base}/me`, { headers: { "x-api-key": key } })
    expect(me.status).toBe(200)
    expect(await me.json()).toMatchObject({ email })
  }, 150_000)

  it(
    "exits 0 on SIGTERM",
    async () => {
      server.kill("SIGTERM")
      expect(await exitOf(server, EXIT_BOUND_MS)).toEqual({ code: 0, signal: null })
      expect(written).not.toMatch(/level=(ERROR|FATAL)/)
    },
    EXIT_BOUND_MS + 5_000
  )
})
