import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { conceptOf, importSpecifiers, isSurface, typeScriptFiles } from "./CoreLayout.js"

/**
 * Every package keeps to docs/architecture.md ("Import boundaries") beyond core's own rules
 * (ImportBoundaries.test.ts): a file outside core reaches core only through its shared place and
 * its concepts' surfaces, never into a concept's insides (`contacts/import/`), and no file of any
 * package comes back to itself through what it imports, statically, for its types only or by
 * import().
 */
const packages = path.resolve(import.meta.dirname, "../..")

/** Repository-relative, with `/`. */
const shown = (file: string) => path.relative(path.dirname(packages), file).split(path.sep).join("/")

/** Every source and test file of every package. */
const workspaceFiles = (): ReadonlyArray<string> =>
  fs
    .readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) =>
      ["src", "test"].flatMap((folder) => {
        const dir = path.join(packages, entry.name, folder)
        return fs.existsSync(dir) ? typeScriptFiles(dir) : []
      })
    )

/** The file an import names: ours by package (`@cisbook/core/Errors`) or by relative path; undefined for anyone else's. */
const resolved = (from: string, specifier: string): string | undefined => {
  const ours = /^@cisbook\/([^/]+)\/(.+)$/.exec(specifier)
  if (ours) return path.join(packages, ours[1]!, "src", `${ours[2]}.ts`)
  if (!specifier.startsWith(".")) return undefined
  return path.resolve(path.dirname(from), specifier).replace(/\.js$/, ".ts")
}

interface Import {
  readonly from: string
  readonly to: string
}

const workspaceImports = (files: ReadonlyArray<string>): ReadonlyArray<Import> =>
  files.flatMap((from) =>
    importSpecifiers(from).flatMap((specifier) => {
      const to = resolved(from, specifier)
      return to === undefined ? [] : [{ from, to }]
    })
  )

const coreSource = path.join(packages, "core", "src")

/** Imports from outside core of a file inside one of core's concepts, not on its surface. */
const intoCoreInsides = (imports: ReadonlyArray<Import>): ReadonlyArray<string> =>
  imports.flatMap(({ from, to }) => {
    if (from.startsWith(path.join(packages, "core") + path.sep) || !to.startsWith(coreSource + path.sep)) return []
    const file = path.relative(coreSource, to).split(path.sep).join("/")
    const concept = conceptOf(file)
    return concept === null || isSurface(file, concept) ? [] : [`${shown(from)} -> ${file}`]
  })

/** Each circle of files that import one another, as its files in the order they import; none when there is no circle. */
const circles = (imports: ReadonlyArray<Import>): ReadonlyArray<ReadonlyArray<string>> => {
  const next = new Map<string, Set<string>>()
  for (const { from, to } of imports) next.set(from, (next.get(from) ?? new Set()).add(to))
  const found: Array<ReadonlyArray<string>> = []
  const done = new Set<string>()
  const trail: Array<string> = []
  const visit = (file: string): void => {
    const at = trail.indexOf(file)
    if (at >= 0) {
      found.push(trail.slice(at).map(shown))
      return
    }
    if (done.has(file)) return
    trail.push(file)
    for (const to of next.get(file) ?? []) visit(to)
    trail.pop()
    done.add(file)
  }
  for (const file of next.keys()) visit(file)
  return found
}

describe("the workspace's import boundaries", () => {
  const imports = workspaceImports(workspaceFiles())

  it("finds the imports of every package", () => {
    const importing = new Set(imports.map(({ from }) => path.relative(packages, from).split(path.sep)[0]))
    expect([...importing].sort()).toEqual(
      fs
        .readdirSync(packages)
        .filter((name) => !name.startsWith("."))
        .sort()
    )
  })

  it("nothing outside core imports a file inside one of core's concepts", () => {
    expect(intoCoreInsides(imports)).toEqual([])
  })

  it("no file comes back to itself through its imports, in any package", () => {
    expect(circles(imports)).toEqual([])
  })

  it("sees an import of core's insides from another package", () => {
    const sdk = path.join(packages, "sdk", "src", "ContactImportApi.ts")
    const made = [
      { from: sdk, to: path.join(coreSource, "contacts", "import", "ImportLimits.ts") },
      { from: sdk, to: path.join(coreSource, "contacts", "ImportLimits.ts") },
      { from: sdk, to: path.join(coreSource, "billing", "mandates", "Mandates.ts") },
      { from: sdk, to: path.join(coreSource, "Errors.ts") }
    ]
    expect(intoCoreInsides(made)).toEqual(["packages/sdk/src/ContactImportApi.ts -> contacts/import/ImportLimits.ts"])
  })

  it("sees the circle DirectDebitLive.ts and GoCardlessRequest.ts made over a constant", () => {
    const gocardless = path.join(packages, "adapters", "src", "gocardless")
    const live = path.join(gocardless, "DirectDebitLive.ts")
    const adapter = path.join(gocardless, "GoCardlessDirectDebit.ts")
    const request = path.join(gocardless, "GoCardlessRequest.ts")
    expect(
      circles([
        { from: live, to: adapter },
        { from: adapter, to: request },
        { from: request, to: live }
      ])
    ).toEqual([
      [
        "packages/adapters/src/gocardless/DirectDebitLive.ts",
        "packages/adapters/src/gocardless/GoCardlessDirectDebit.ts",
        "packages/adapters/src/gocardless/GoCardlessRequest.ts"
      ]
    ])
  })
})
