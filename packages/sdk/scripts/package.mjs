// Builds @cisbook/sdk to ESM JavaScript with type declarations and packs it with `npm pack`:
// `node packages/sdk/scripts/package.mjs [destination]` prints the tarball's path.
//
// The SDK shares schemas with @cisbook/core, which is not published: its compiled files travel
// inside the tarball as a bundled dependency (node_modules/@cisbook/core), so a project outside
// the workspace installs one file and needs only effect and @effect/platform from the registry.
import { execFileSync } from "node:child_process"
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import process from "node:process"
import { fileURLToPath } from "node:url"

const sdk = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const build = join(sdk, "build")
const destination = resolve(process.argv[2] ?? build)
const compiled = join(build, "tsc")
const stage = join(build, "package")
const bundledCore = join(stage, "node_modules", "@cisbook", "core")

const manifest = JSON.parse(readFileSync(join(sdk, "package.json"), "utf8"))
const core = JSON.parse(readFileSync(join(sdk, "..", "core", "package.json"), "utf8"))

// Every module is a subpath, as in the workspace: "@cisbook/sdk/Client", "@cisbook/core/Errors".
const subpaths = { "./*": { types: "./*.d.ts", default: "./*.js" }, "./package.json": "./package.json" }

rmSync(build, { recursive: true, force: true })
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
execFileSync(process.execPath, [tsc, "-p", join(sdk, "tsconfig.build.json")], { stdio: "inherit" })

cpSync(join(compiled, "sdk", "src"), stage, { recursive: true })
cpSync(join(compiled, "core", "src"), bundledCore, { recursive: true })
cpSync(join(sdk, "README.md"), join(stage, "README.md"))

const effectPeers = {
  effect: manifest.dependencies.effect,
  "@effect/platform": manifest.dependencies["@effect/platform"]
}
writeFileSync(
  join(bundledCore, "package.json"),
  JSON.stringify(
    {
      name: core.name,
      version: core.version,
      type: "module",
      exports: subpaths,
      peerDependencies: { effect: core.dependencies.effect }
    },
    null,
    2
  )
)
writeFileSync(
  join(stage, "package.json"),
  JSON.stringify(
    {
      name: manifest.name,
      version: manifest.version,
      description: "The cisbook HTTP contract and its typed clients (Effect and Promise)",
      license: "UNLICENSED",
      type: "module",
      exports: subpaths,
      engines: { node: ">=20" },
      dependencies: { [core.name]: core.version },
      bundleDependencies: [core.name],
      peerDependencies: effectPeers
    },
    null,
    2
  )
)

mkdirSync(destination, { recursive: true })
const packed = JSON.parse(
  execFileSync("npm", ["pack", "--json", "--pack-destination", destination], { cwd: stage, encoding: "utf8" })
)
process.stdout.write(`${join(destination, packed[0].filename)}\n`)
