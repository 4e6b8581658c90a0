import { type ChildProcess, execFile, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import * as net from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exitOf, freePort } from "./ChildProcesses.js"

const root = resolve(import.meta.dirname, "../../..")
const tsx = join(root, "node_modules/.bin/tsx")
const run = promisify(execFile)

/** The longest the server may take to start, and to exit after SIGTERM. */
const START_BOUND_MS = 60_000
const EXIT_BOUND_MS = 20_000

/** Resolves with the first match of `pattern` in what the process writes, or rejects after `ms`. */
const waitForOutput = (child: ChildProcess, pattern: RegExp, ms: number) =>
  new Promise<RegExpMatchArray>((resolvePromise, reject) => {
    let seen = ""
    const timer = setTimeout(() => {
      child.stdout?.off("data", onData)
      reject(new Error(`No ${pattern} within ${ms} ms; the process wrote:\n${seen}`))
    }, ms)
    const onData = (chunk: Buffer) => {
      seen += chunk.toString()
      const match = seen.match(pattern)
      if (match) {
        clearTimeout(timer)
        child.stdout?.off("data", onData)
        resolvePromise(match)
      }
    }
    child.stdout?.on("data", onData)
    child.once("exit", () => {
      clearTimeout(timer)
      reject(new Error(`The process exited before ${pattern}; it wrote:\n${seen}`))
    })
  })

/** Whether new connections to `port` are refused within `ms` (polled every 50 ms). */
const refusesConnections = async (port: number, ms: number) => {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((answer) => {
      const probe = net.connect(port, "127.0.0.1", () => {
        probe.destroy()
        answer(false)
      })
      probe.on("error", () => answer(true))
    })
    if (refused) return true
    await new Promise((wait) => setTimeout(wait, 50))
  }
  return false
}

/** A request sent by hand over one connection, so that the test decides when its body ends. */
const openRequest = (port: number, head: string) =>
  new Promise<{ socket: net.Socket; answer: Promise<string> }>((resolvePromise, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(head)
      resolvePromise({ socket, answer })
    })
    let received = ""
    const answer = new Promise<string>((done) => {
      socket.on("data", (chunk) => (received += chunk.toString()))
      socket.on("close", () => done(received))
    })
    socket.on("error", reject)
  })

describe("the server process on the embedded database", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "cisbook-server-process-"))
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: "Info",
    HOST: "127.0.0.1"
  }
  let server: ChildProcess
  let port: number

  const cli = (...args: Array<string>) =>
    run(tsx, [join(root, "packages/cli/src/bin.ts"), ...args], { cwd: root, env, timeout: 60_000 })

  beforeAll(async () => {
    env["PORT"] = String(await freePort())
    server = spawn(process.execPath, ["--import", "tsx", "packages/http/src/main.ts"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    const listening = await waitForOutput(server, /Listening on http:\/\/127\.0\.0\.1:(\d+)/, START_BOUND_MS)
    port = Number(listening[1])
  }, START_BOUND_MS + 5_000)

  afterAll(() => {
    if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL")
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("runs the README's first call with the server running: the CLI makes a user and a key through its socket", async () => {
    const email = `ada.${process.pid}@example.com`
    const user = await cli("users", "create", "--email", email, "--name", "Ada Lovelace")
    expect(user.stdout).toContain(`Created user ${email}`)
    const created = await cli("api-keys", "create", "--email", email, "--name", "laptop")
    const key = created.stdout.trim().split("\n").at(-1)!
    expect(key).toMatch(/^cis_/)

    const me = await fetch(`http://127.0.0.1:${port}/me`, { headers: { "x-api-key": key } })
    expect(me.status).toBe(200)
    expect(await me.json()).toMatchObject({ email })
  }, 150_000)

  it("on SIGTERM answers the request in flight, stops accepting, and exits 0 releasing DATA_DIR", async () => {
    const body = JSON.stringify({ code: `late-${process.pid}`, name: "Late Ltd" })
    const email = `late.${process.pid}@example.com`
    await cli("users", "create", "--email", email, "--name", "Late")
    const key = (await cli("api-keys", "create", "--email", email, "--name", "late")).stdout.trim().split("\n").at(-1)!
    const half = Math.floor(body.length / 2)
    const { answer, socket } = await openRequest(
      port,
      `POST /tenants HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`
    )
    // The request is in flight (its body half sent) when the signal arrives; the server then
    // stops taking connections.
    server.kill("SIGTERM")
    expect(await refusesConnections(port, EXIT_BOUND_MS)).toBe(true)
    socket.write(body.slice(half))
    const response = await answer
    expect(response).toMatch(/^HTTP\/1\.1 201 /)
    expect(response.toLowerCase()).toContain("connection: close")
    expect(response).toContain('"code":"late-')

    expect(await exitOf(server, EXIT_BOUND_MS)).toEqual({ code: 0, signal: null })
    expect(existsSync(join(dataDir, "cisbook.lock"))).toBe(false)
    expect(existsSync(join(dataDir, ".s.PGSQL.5432"))).toBe(false)
  }, 150_000)
})
