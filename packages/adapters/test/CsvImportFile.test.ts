import { csvFileRecords } from "@cisbook/adapters/csv/CsvImportFile"
import { importFixture, largeImportCsv } from "@cisbook/testkit/ImportFixtures"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const records = (name: string) => Stream.runCollect(csvFileRecords(importFixture(name))).pipe(Effect.map(Chunk.toArray))

const unreadable = (name: string) => Effect.flip(records(name))

describe("CSV import files", () => {
  it.effect("reads an Excel-saved file: BOM, CRLF, quoted commas, accents, and no trailing empty rows", () =>
    Effect.gen(function* () {
      const read = yield* records("excel-bom-crlf.csv")
      expect(read).toHaveLength(5)
      expect(read[0]?.[0]).toBe("Name")
      expect(read[0]).toHaveLength(17)
      expect(read[2]?.slice(0, 4)).toEqual([
        "Zoë Ó Briain, Plastering",
        "Ó Briain Plastering",
        "ZOE@OBRIAIN.EXAMPLE",
        "Sole Trader"
      ])
      expect(read[4]?.[0]).toBe("Bloggs & Sons")
    })
  )

  it.effect("detects semicolons, keeping the commas inside cells", () =>
    Effect.gen(function* () {
      const read = yield* records("semicolon.csv")
      expect(read.map((r) => r[0])).toEqual(["Name", "Smith, John", "Brick & Co, Ltd"])
      expect(read[1]).toHaveLength(17)
    })
  )

  it.effect("detects tabs", () =>
    Effect.gen(function* () {
      const read = yield* records("tab-delimited.csv")
      expect(read[0]).toEqual([
        "name",
        "trading_name",
        "email_address",
        "cis_type",
        "first_name",
        "surname",
        "utr",
        "ni_number",
        "vat_registered",
        "vat_rate"
      ])
      expect(read[1]?.[0]).toBe("Tab Plumbing, Heating")
    })
  )

  it.effect("keeps quoted line breaks and quotes, and leaves blank lines out", () =>
    Effect.gen(function* () {
      const read = yield* records("quoted-newlines.csv")
      expect(read.map((r) => r[0])).toEqual([
        "Name",
        'Patrick "Paddy" Kelly',
        "Kelly & Daughters,\nBuilding Contractors",
        "Multi\nLine\nName"
      ])
      expect(read[2]?.[1]).toBe("Kelly & Daughters, Builders")
    })
  )

  it.effect("gives nothing for an empty file or one of blank lines", () =>
    Effect.gen(function* () {
      expect(yield* records("empty.csv")).toEqual([])
      expect(yield* records("blank-lines-only.csv")).toEqual([])
    })
  )

  it.effect("refuses what is not UTF-8 CSV text, saying why", () =>
    Effect.gen(function* () {
      expect((yield* unreadable("workbook.xlsx")).reason).toMatch(/^it is not a text file/)
      expect((yield* unreadable("utf16.csv")).reason).toMatch(/^it is UTF-16 text; save it .* as CSV UTF-8/)
      expect((yield* unreadable("windows-1252.csv")).reason).toMatch(/^it is not UTF-8 text/)
      expect((yield* unreadable("unclosed-quote.csv")).reason).toMatch(/a quoted cell is never closed/)
    })
  )

  it.effect("reads the file again each time the stream runs, and stops reading when the consumer stops", () =>
    Effect.gen(function* () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-csv-"))
      const file = path.join(dir, "large.csv")
      fs.writeFileSync(file, largeImportCsv(10_000))
      const stream = csvFileRecords(file)
      expect(yield* Stream.runCount(stream)).toBe(10_001)
      expect(yield* Stream.runCount(stream)).toBe(10_001)
      const firstTwo = yield* Stream.runCollect(Stream.take(stream, 2))
      expect(Chunk.toArray(firstTwo)[1]?.[0]).toBe("John Smith Groundworks 1")
      fs.rmSync(dir, { recursive: true })
    })
  )
})
