import { expect } from "@effect/vitest"
import { spawnSync } from "node:child_process"

/** The PDF's text as pdftotext lays it out: one trimmed line each, runs of spaces as " | ". */
export const pdfLines = (pdf: Uint8Array) => {
  const read = spawnSync("pdftotext", ["-layout", "-", "-"], { input: pdf, encoding: "utf8" })
  expect(read.status, read.stderr).toBe(0)
  return read.stdout.split("\n").map((l) => l.trim().replace(/\s{2,}/g, " | "))
}
