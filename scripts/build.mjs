// `pnpm build`: the server and the admin CLI as JavaScript that plain Node runs, in dist/
// (dist/server.js, dist/cli.js and the chunks they share), without tsx or a compiler at start.
//
// Our own packages export their TypeScript sources (`@cisbook/x/*` is `./src/*.ts`), so they are
// bundled. Every third-party package stays where pnpm installed it and is loaded from there:
// PGlite finds its .wasm and .data files next to its own module, pg's optional native binding is
// looked up at run time, and one copy of effect is shared by all. pnpm installs a package's
// dependencies next to the package that declares them (packages/*/node_modules), where a file in
// dist/ would not find them by name, so each import is written as the relative path of the file
// it resolves to from the package that makes it. dist/ therefore runs inside this checkout, after
// `pnpm install --frozen-lockfile`, and is rebuilt whenever the lockfile changes.
//
// Code splitting keeps what only a configuration selects (the fakes of GoCardless and of HMRC's
// Transaction Engine, loaded with a dynamic import()) in chunks of their own that production never
// loads.
import { cpSync, rmSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import process from "node:process"
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const outdir = join(root, "dist")

const isOurs = (specifier) => specifier.startsWith("@cisbook/")
const isBare = (specifier) => !specifier.startsWith(".") && !specifier.startsWith("/")

/**
 * Packages left where they are: those that find files next to their own modules at run time
 * (PGlite's WebAssembly, pdfkit's fonts, libxml2-wasm's WebAssembly), and pg with its own packages, which require one
 * another by name under an ES module wrapper that a bundle would tear apart.
 */
const inPlace = [
  /\/node_modules\/@electric-sql\//,
  /\/node_modules\/(pdfkit|fontkit)\//,
  /\/node_modules\/libxml2-wasm\//,
  /\/node_modules\/pg(-[a-z-]+)?\//
]

/** Optional native add-ons that their packages require inside a try (not installed here): left to fail at run time as they do. */
const optional = new Set(["pg-native", "bufferutil", "utf-8-validate", "msgpackr-extract"])

/**
 * Whether a third-party module is bundled: all are but those of `inPlace`, so that effect and
 * its family, and what they import, are a few files instead of about a thousand that Node would
 * find, read and compile one by one at every start.
 */
const isBundled = (file) => !inPlace.some((pattern) => pattern.test(file))

/** Leaves every third-party import external, as the relative path of the file it resolves to. */
const thirdPartyExternal = {
  name: "third-party-external",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "resolving" || isOurs(args.path)) return undefined
      if (optional.has(args.path)) return { path: args.path, external: true }
      // Our sources' own relative imports; a bundled package's relative ones are decided below.
      if (!isBare(args.path) && !args.importer.includes(`${sep}node_modules${sep}`)) return undefined
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "resolving"
      })
      if (resolved.errors.length > 0) return { errors: resolved.errors }
      // Node's built-in modules (node:fs, ...), which esbuild already leaves as they are.
      if (resolved.external) return { path: args.path, external: true }
      if (isBundled(resolved.path)) return { path: resolved.path }
      const fromDist = relative(outdir, resolved.path).split(sep).join("/")
      return { path: fromDist.startsWith(".") ? fromDist : `./${fromDist}`, external: true }
    })
  }
}

/**
 * @effect/cli parses YAML, TOML and INI (its Options.fileParse and config files) with parsers its
 * module of files imports at the top; no command of ours reads such a file, and the three are
 * about 400 KB that every start of the CLI would compile. Each is replaced by a module whose
 * `parse` requires the package's own CommonJS build, where pnpm installed it, at the first parse.
 */
const configFileParsersOnFirstParse = {
  name: "config-file-parsers-on-first-parse",
  setup(build) {
    build.onResolve({ filter: /^(yaml|toml|ini)$/ }, async (args) => {
      if (args.pluginData === "resolving" || !args.importer.includes(`${sep}@effect${sep}cli${sep}`)) return undefined
      const resolved = await build.resolve(args.path, {
        kind: "require-call",
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "resolving"
      })
      if (resolved.errors.length > 0) return { errors: resolved.errors }
      return {
        path: args.path,
        namespace: "on-first-parse",
        pluginData: relative(outdir, resolved.path).split(sep).join("/")
      }
    })
    build.onLoad({ filter: /.*/, namespace: "on-first-parse" }, (args) => ({
      contents: [
        'import { createRequire } from "node:module"',
        "const requireFromDist = createRequire(import.meta.url)",
        `export const parse = (content) => requireFromDist(${JSON.stringify(args.pluginData)}).parse(content)`
      ].join("\n"),
      loader: "js"
    }))
  }
}

rmSync(outdir, { recursive: true, force: true })
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: {
    server: "packages/http/src/main.ts",
    cli: "packages/cli/src/bin.ts"
  },
  outdir,
  // Chunks sit next to the entry points: the relative paths of the externals hold for every file.
  chunkNames: "[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["import", "node"],
  sourcemap: "linked",
  plugins: [configFileParsersOnFirstParse, thirdPartyExternal],
  logLevel: "warning",
  // The CommonJS modules bundled into these ES modules require Node's own modules by name.
  banner: {
    js: 'import { createRequire as __cisbookRequire } from "node:module"; const require = __cisbookRequire(import.meta.url);'
  },
  metafile: true
})

// HMRC's schemas, which the filing check reads next to the chunk that holds it (./xsd/).
cpSync(join(root, "packages/adapters/src/taxauthority/govtalk/xsd"), join(outdir, "xsd"), { recursive: true })

const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js"))
process.stdout.write(
  `Built ${outputs.length} files in ${relative(root, outdir)}/: node dist/server.js, node dist/cli.js\n`
)
