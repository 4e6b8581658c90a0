import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { freePort } from "./ChildProcesses.js"

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url))
const main = fileURLToPath(new URL("../src/main.ts", import.meta.url))

/** Settings a test server process never takes from the test's own environment. */
const withheld = ["DATABASE_URL", "DATA_DIR", "UPLOAD_DIR", "PORT", "HOST", "SMTP_URL", "AUTH_JWKS_URL"]

export interface ServerProcess {
  /** Where it listens, as it logged it. */
  readonly url: string
  readonly child: ChildProcess
  /** What it has written so far (stdout and stderr), to show when a test fails. */
  readonly output: () => string
}

/** Ends the process as `kill -9` would, and waits until it has gone. */
export const killNine = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill("SIGKILL")
  })

/**
 * The real server, `packages/http/src/main.ts` through tsx as `pnpm start` runs it, in a child
 * process with `env` (on a free port of loopback); ready once it logs where it listens (within
 * 30 s). The scope kills it with SIGKILL if it is still running.
 */
export const startServerProcess = (env: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.flatMap(Effect.promise(freePort), (port) => start({ ...env, PORT: String(port) })),
    ({ child }) => killNine(child)
  )

const start = (env: Readonly<Record<string, string>>) =>
  Effect.async<ServerProcess, Error>((resume) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !withheld.includes(name)))
    const child = spawn(process.execPath, ["--import", "tsx", main], {
      cwd: repositoryRoot,
      env: { ...inherited, HOST: "127.0.0.1", LOG_LEVEL: "Info", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    let settled = false
    const settle = (outcome: Effect.Effect<ServerProcess, Error>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resume(outcome)
    }
    // Generous: tsx compiles the server at every start, which takes long on a loaded machine.
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      settle(Effect.fail(new Error(`The server did not listen within 120 s:\n${output}`)))
    }, 120_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8")
      const listening = /Listening on (http:\/\/[^\s"]+)/.exec(output)
      if (listening !== null) settle(Effect.succeed({ url: listening[1]!, child, output: () => output }))
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    child.once("exit", (code, signal) =>
      settle(Effect.fail(new Error(`The server exited (${code ?? signal}) before it listened:\n${output}`)))
    )
  })
