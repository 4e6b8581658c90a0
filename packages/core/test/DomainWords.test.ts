import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"

const source = path.resolve(import.meta.dirname, "../src")

const files = (dir: string): ReadonlyArray<string> =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? files(path.join(dir, entry.name))
        : entry.name.endsWith(".ts")
          ? [path.join(dir, entry.name)]
          : []
    )

describe("the core", () => {
  it("speaks of the domain: no message names an HTTP route (the HTTP layer adds those)", () => {
    const routes = files(source).flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => /\b(GET|PUT|POST|DELETE|PATCH) \//.test(line))
        .map((line) => `${path.relative(source, file)}: ${line.trim()}`)
    )
    expect(routes).toEqual([])
  })
})
