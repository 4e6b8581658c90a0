import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { e2e, signUp, SqlTestPorts, uniqueTenantCode } from "./E2E.js"

const run = promisify(execFile)
const sdk = resolve(import.meta.dirname, "../../sdk")
const consumer = resolve(import.meta.dirname, "sdk-consumer")
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")

const consumerTsconfig = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    types: []
  },
  files: ["consumer.mts"]
}

/** Each step's bound: the whole test stays within a few minutes even on a busy machine. */
const STEP = { timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }

// Child processes run asynchronously: the server under test answers them from this process.
const inProject = (project: string, command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.promise(() => run(command, [...args], { ...STEP, cwd: project, env: { ...process.env, ...env } }))

layer(e2e(SqlTestPorts), { timeout: "6 minutes" })("the packed SDK", (it) => {
  it.scoped(
    "installs from its tarball into a project outside the workspace and works from plain Node, both clients",
    () =>
      Effect.gen(function* () {
        const project = mkdtempSync(join(tmpdir(), "cisbook-sdk-consumer-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(project, { recursive: true, force: true })))
        const packed = yield* inProject(sdk, process.execPath, ["scripts/package.mjs", project])
        const tarball = packed.stdout.trim().split("\n").at(-1)!
        expect(existsSync(tarball)).toBe(true)

        writeFileSync(
          join(project, "package.json"),
          JSON.stringify({ name: "consumer", private: true, type: "module" })
        )
        yield* inProject(project, "npm", [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          "--no-package-lock",
          tarball,
          "effect@3.22.4",
          "@effect/platform@0.97.2"
        ])
        // Only the tarball's own files and the registry's packages: nothing of the workspace.
        expect(existsSync(join(project, "node_modules/@cisbook/sdk/Client.js"))).toBe(true)
        expect(existsSync(join(project, "node_modules/@cisbook/sdk/Client.d.ts"))).toBe(true)
        expect(existsSync(join(project, "node_modules/@cisbook/sdk/Client.ts"))).toBe(false)

        copyFileSync(join(consumer, "consumer.mjs"), join(project, "consumer.mjs"))
        copyFileSync(join(consumer, "consumer.mts"), join(project, "consumer.mts"))
        const { key, user } = yield* signUp("packed")
        const tenant = uniqueTenantCode("packed")
        const baseUrl = yield* HttpServer.addressFormattedWith(Effect.succeed)
        const output = yield* inProject(project, process.execPath, ["consumer.mjs"], {
          CISBOOK_URL: baseUrl,
          CISBOOK_KEY: key,
          CISBOOK_TENANT: tenant
        })
        expect(JSON.parse(output.stdout)).toEqual({
          me: user.email,
          created: tenant,
          replayedSame: true,
          promiseFailure: "NotFound",
          viaEffect: { tenant, contact: "PACKEDBU", failure: "NotFound" }
        })

        // The declarations type-check a consumer (and catch a wrong payload) with the workspace's TypeScript.
        writeFileSync(join(project, "tsconfig.json"), JSON.stringify(consumerTsconfig))
        yield* inProject(project, process.execPath, [tsc, "-p", "tsconfig.json"])
      })
  )
})
