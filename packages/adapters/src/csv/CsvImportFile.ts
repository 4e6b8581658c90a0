import { CsvUnreadable, type ImportFile } from "@cisbook/core/contacts/ImportFile"
import { CsvError, parse } from "csv-parse"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { pipeline, Transform, type TransformCallback } from "node:stream"
import { Effect, Stream } from "effect"

/** A row longer than this is no contact: most likely not a CSV file at all. */
const MAX_ROW_CHARACTERS = 64 * 1024

/** Records handed on together, so that the consumer's per-element work is amortised. */
const BATCH_RECORDS = 256

const saveAs = "save it from your spreadsheet as CSV UTF-8 (comma delimited)"

const notUtf8 = new CsvUnreadable({ reason: `it is not UTF-8 text; ${saveAs}` })

/**
 * Decodes UTF-8 text (a byte order mark is dropped) and refuses what is not: UTF-16, bytes
 * that are not UTF-8, or a binary file such as a workbook.
 */
const utf8Text = () => {
  const decoder = new TextDecoder("utf-8", { fatal: true })
  let first = true
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      if (
        first &&
        chunk.length >= 2 &&
        ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff))
      ) {
        return callback(new CsvUnreadable({ reason: `it is UTF-16 text; ${saveAs}` }))
      }
      first = false
      if (chunk.includes(0)) {
        return callback(new CsvUnreadable({ reason: `it is not a text file (a workbook or a document?); ${saveAs}` }))
      }
      try {
        callback(null, decoder.decode(chunk, { stream: true }))
      } catch {
        callback(notUtf8)
      }
    },
    flush(callback: TransformCallback) {
      try {
        callback(null, decoder.decode())
      } catch {
        callback(notUtf8)
      }
    }
  })
}

const where = (error: CsvError) => {
  const line = (error as { readonly lines?: unknown }).lines
  return typeof line === "number" ? ` (line ${line})` : ""
}

const unreadable = (error: unknown): CsvUnreadable => {
  if (error instanceof CsvUnreadable) return error
  if (error instanceof CsvError) {
    switch (error.code) {
      case "CSV_QUOTE_NOT_CLOSED":
        return new CsvUnreadable({ reason: 'a quoted cell is never closed: a quote (") is missing' })
      case "CSV_INVALID_CLOSING_QUOTE":
        return new CsvUnreadable({ reason: `a quoted cell has text after its closing quote${where(error)}` })
      case "CSV_MAX_RECORD_SIZE":
        return new CsvUnreadable({
          reason: `a row is longer than ${MAX_ROW_CHARACTERS.toLocaleString("en-GB")} characters${where(error)}`
        })
      default:
        return new CsvUnreadable({ reason: error.message })
    }
  }
  return new CsvUnreadable({ reason: "it could not be read" })
}

/** How much of the file's start is read to find its header row. */
const HEADER_BYTES = 64 * 1024

const delimiters = [",", ";", "\t"] as const

/**
 * The delimiter the header row uses most: comma, semicolon or tab (a comma when none is used,
 * as in a one-column file). csv-parse's own discovery is not used: it fails on a quoted cell.
 */
export const headerDelimiter = (start: string): string => {
  const counts = new Map<string, number>(delimiters.map((d) => [d, 0]))
  let quoted = false
  for (const char of start.replace(/^[\ufeff\s]+/, "")) {
    if (char === '"') quoted = !quoted
    else if (!quoted && (char === "\n" || char === "\r")) break
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1)
  }
  return [...counts].reduce((best, next) => (next[1] > best[1] ? next : best))[0]
}

const fileStart = (path: string) =>
  Effect.tryPromise({
    try: async () => {
      const handle = await fs.promises.open(path)
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0)
        return new TextDecoder().decode(buffer.subarray(0, bytesRead))
      } finally {
        await handle.close()
      }
    },
    catch: () => new CsvUnreadable({ reason: "it could not be read" })
  })

async function* batches(records: AsyncIterable<Array<string>>) {
  let batch: Array<Array<string>> = []
  for await (const record of records) {
    batch.push(record)
    if (batch.length === BATCH_RECORDS) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}

/**
 * The records of a CSV file on disk, read as a stream each time the stream runs: UTF-8 with or
 * without a byte order mark, CRLF, LF or CR line ends, comma, semicolon or tab delimited,
 * quoted cells holding delimiters, quotes and line breaks. Blank lines, and rows of empty cells
 * that spreadsheets leave behind, are left out.
 */
export const csvFileRecords = (path: string): Stream.Stream<ReadonlyArray<string>, CsvUnreadable> =>
  Stream.unwrap(
    Effect.map(fileStart(path), (start) => {
      const parser = parse({
        bom: true,
        delimiter: headerDelimiter(start),
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        skip_records_with_empty_values: true,
        max_record_size: MAX_ROW_CHARACTERS
      })
      // The pipeline passes a failure of any stage on to the parser, where the iteration sees it.
      pipeline(fs.createReadStream(path), utf8Text(), parser, () => undefined)
      return Stream.fromAsyncIterable(batches(parser), unreadable).pipe(Stream.mapConcat((batch) => batch))
    })
  )

/** The SHA-256 of the file at `path`, in hex, read as a stream (an import file may be megabytes). */
export const fileDigest = (path: string): Effect.Effect<string> =>
  Effect.async<string, Error>((resume) => {
    const hash = createHash("sha256")
    fs.createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resume(Effect.succeed(hash.digest("hex"))))
      .on("error", (error) => resume(Effect.fail(error)))
  }).pipe(Effect.orDie)

/** An uploaded import file saved at `path`; `name` is the name its sender gave it. */
export const csvImportFile = (path: string, name: string): ImportFile => ({
  name,
  records: csvFileRecords(path),
  digest: fileDigest(path)
})
