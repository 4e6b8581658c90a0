import { Effect, Stream } from "effect"
import { ValidationFailed } from "../../Errors.js"
import { analyseImportRow } from "./AnalyseImportRow.js"
import { importColumns, type ImportColumnIndexes, matchColumns } from "../ImportColumns.js"
import type { CsvUnreadable, ImportFile } from "../ImportFile.js"
import { MAX_IMPORT_ROWS } from "../ImportLimits.js"

const fileProblem = (detail: string) => ValidationFailed.one("file", detail)

const unreadable = (error: CsvUnreadable) => fileProblem(`The file cannot be read as CSV: ${error.reason}.`)

const noColumns = fileProblem(
  `The first row of the file names none of the template's columns (${importColumns.join(", ")}); download the template for an example.`
)

const maxRows = MAX_IMPORT_ROWS.toLocaleString("en-GB")
const tooManyRows = fileProblem(
  `The file has more than ${maxRows} data rows; split it into files of at most ${maxRows} rows each.`
)

interface Reading {
  readonly columns: ImportColumnIndexes | null
  readonly rows: number
}

/** An import file read through once and found importable: where its columns are, and how many data rows it has. */
export interface CheckedImportFile {
  readonly columns: ImportColumnIndexes
  readonly rows: number
}

/**
 * Reads the whole file once, keeping nothing but counts: it must be CSV, its header must name a
 * template column, and it must have from 1 to 10,000 data rows (reading stops at the 10,001st).
 */
export const checkImportFile = (file: ImportFile): Effect.Effect<CheckedImportFile, ValidationFailed> =>
  file.records.pipe(
    Stream.mapError(unreadable),
    Stream.runFoldEffect(
      { columns: null, rows: 0 } as Reading,
      (state, record): Effect.Effect<Reading, ValidationFailed> => {
        if (state.columns === null) {
          const columns = matchColumns(record)
          return Object.keys(columns).length > 0 ? Effect.succeed({ columns, rows: 0 }) : Effect.fail(noColumns)
        }
        return state.rows < MAX_IMPORT_ROWS
          ? Effect.succeed({ columns: state.columns, rows: state.rows + 1 })
          : Effect.fail(tooManyRows)
      }
    ),
    Effect.flatMap(({ columns, rows }) =>
      columns === null
        ? Effect.fail(fileProblem("The file is empty: it needs a header row and at least one data row."))
        : rows === 0
          ? Effect.fail(fileProblem("The file has a header row but no data rows."))
          : Effect.succeed({ columns, rows })
    )
  )

/** The data rows of a checked file, each analysed, read from the file again. */
export const analysedImportRows = (file: ImportFile, columns: ImportColumnIndexes, latestVerificationDate: string) =>
  file.records.pipe(
    Stream.mapError(unreadable),
    Stream.drop(1),
    Stream.mapAccum(0, (previous, cells) => {
      const rowId = previous + 1
      return [rowId, analyseImportRow(rowId, cells, columns, latestVerificationDate)] as const
    })
  )
