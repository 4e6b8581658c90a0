// `pnpm start` and `pnpm cli`: `node scripts/run-built.mjs <server|cli> [arguments]` runs
// dist/<server|cli>.js in this process, building it first (scripts/build.mjs) when it is missing
// or older than a source it is built from (packages/*/src, the lockfile, the build script). The
// check is a few hundred stat calls; the built program starts in a fraction of tsx's time.
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import process from "node:process"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const entry = process.argv[2]
if (entry !== "server" && entry !== "cli") {
  process.stderr.write("usage: node scripts/run-built.mjs <server|cli> [arguments]\n")
  process.exit(2)
}
const built = join(root, "dist", `${entry}.js`)

/** The latest modification time of the files under `dir` (0 when there is none). */
const newestUnder = (dir) => {
  let newest = 0
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    if (item.name === "node_modules") continue
    const path = join(dir, item.name)
    newest = Math.max(newest, item.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs)
  }
  return newest
}

const sources = () =>
  Math.max(
    ...readdirSync(join(root, "packages")).map((name) => {
      const src = join(root, "packages", name, "src")
      return existsSync(src) ? newestUnder(src) : 0
    }),
    statSync(join(root, "pnpm-lock.yaml")).mtimeMs,
    statSync(join(root, "scripts", "build.mjs")).mtimeMs
  )

if (!existsSync(built) || statSync(built).mtimeMs < sources()) {
  // On stderr, so that what a command prints on stdout stays its own.
  const build = spawnSync(process.execPath, [join(root, "scripts", "build.mjs")], {
    cwd: root,
    stdio: ["ignore", process.stderr, process.stderr]
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

// The program reads its arguments from process.argv, as if started as `node dist/<entry>.js`.
process.argv.splice(1, 2, built)
await import(pathToFileURL(built).href)
