import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../../..")

/** The documents that name the code: the README and every page of docs/. */
const documents = [
  "README.md",
  ...fs
    .readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join("docs", name))
]

/** Every `packages/...` path a document names, in code spans or plain text, without a trailing sentence mark. */
const namedPaths = (text: string) =>
  [...text.matchAll(/(?<![\w/.-])packages\/[\w./@-]+/g)].map(([found]) => found.replace(/[.,:;)]+$/, ""))

describe("the paths the documents name", () => {
  it("exist, every one", () => {
    const missing = documents.flatMap((document) =>
      namedPaths(fs.readFileSync(path.join(root, document), "utf8"))
        .filter((named) => !named.includes("*") && !fs.existsSync(path.join(root, named)))
        .map((named) => `${document}: ${named}`)
    )
    expect(missing).toEqual([])
  })

  it("are found in the documents (the check reads them)", () => {
    const named = namedPaths(fs.readFileSync(path.join(root, "docs", "architecture.md"), "utf8"))
    expect(named).toContain("packages/http/src/middleware/AuthenticateLive.ts")
    expect(named.length).toBeGreaterThan(50)
  })
})
