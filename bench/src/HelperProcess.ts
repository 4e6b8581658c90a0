import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { Effect } from "effect"

/**
 * Runs a TypeScript script in a process of its own (so that it does not share the measured
 * process's event loop) until the scope closes; the first line it prints.
 */
export const startHelperProcess = (script: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly firstLine: string; readonly stop: () => void }>((resume) => {
      const tsx = createRequire(import.meta.url)
        .resolve("tsx/package.json")
        .replace(/package\.json$/, "dist/loader.mjs")
      const child = spawn(process.execPath, ["--import", tsx, script], { stdio: ["ignore", "pipe", "inherit"] })
      child.stdout.once("data", (data: Buffer) =>
        resume(Effect.succeed({ firstLine: String(data).trim(), stop: () => child.kill() }))
      )
    }),
    (helper) => Effect.sync(helper.stop)
  )
