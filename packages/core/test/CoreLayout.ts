import * as fs from "node:fs"
import * as path from "node:path"

// How the import-boundary tests read the sources: the files, what each imports, and which of
// core's concepts a file of core belongs to (docs/architecture.md, "Import boundaries").

/** Folders of core that group concepts: each of their subfolders is a concept. */
export const GROUPS = ["billing"]

/** The TypeScript files under a folder, its node_modules aside. */
export const typeScriptFiles = (dir: string): ReadonlyArray<string> =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.name === "node_modules"
        ? []
        : entry.isDirectory()
          ? typeScriptFiles(path.join(dir, entry.name))
          : entry.name.endsWith(".ts")
            ? [path.join(dir, entry.name)]
            : []
    )

const specifiers = /\bfrom\s*["']([^"']+)["']|\bimport\s*\(?\s*["']([^"']+)["']/g

/** Every module a file imports as written: static imports and re-exports, `import type`, and import(). */
export const importSpecifiers = (file: string): ReadonlyArray<string> =>
  Array.from(fs.readFileSync(file, "utf8").matchAll(specifiers), (m) => m[1] ?? m[2] ?? "")

/** A core file's concept (its folder, or a group's subfolder), by its path from core's src; null for the shared place. */
export const conceptOf = (file: string): string | null => {
  const folders = file.split("/").slice(0, -1)
  if (folders.length === 0) return null
  return GROUPS.includes(folders[0]!) ? folders.slice(0, 2).join("/") : folders[0]!
}

/** Whether a core file (by its path from core's src) is on its concept's surface: directly in the concept's folder. */
export const isSurface = (file: string, concept: string) => path.posix.dirname(file) === concept
