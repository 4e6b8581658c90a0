import type { ContactImportRow } from "@cisbook/core/contacts/ImportAnalysis"
import { ContactImport } from "@cisbook/core/contacts/ContactImport"
import { Command, Options } from "@effect/cli"
import { Chunk, Console, Data, Effect, Either, Option, Stream } from "effect"
import * as path from "node:path"
import { admin, reported } from "../Admin.js"
import { asSupport } from "@cisbook/core/tenants/ActingFor"
import { ContactImportLive, TenantsLive } from "../AdminUseCases.js"
import { progressBar } from "../ProgressBar.js"
import { parseRowSelection } from "../RowSelection.js"
import { table } from "../Table.js"
import { verifyContact } from "./ContactVerifyCommand.js"

/** A command used wrongly, or an import with rows that failed: said on stderr, exit code 1. */
class ImportRefused extends Data.TaggedError("ImportRefused")<{ readonly message: string }> {}

/** What to import: the rows given, every importable row, or nothing (a dry run). */
type Choice = { readonly rows: ReadonlySet<number> } | "all" | "none"

/** The rows the flags choose, or why they do not make sense. */
const choose = (flags: {
  readonly rows: Option.Option<string>
  readonly all: boolean
  readonly dryRun: boolean
}): Either.Either<Choice, ImportRefused> => {
  const refuse = (message: string) => Either.left(new ImportRefused({ message }))
  if (Option.isSome(flags.rows) && flags.all) return refuse("Give either --rows or --all, not both.")
  if (Option.isSome(flags.rows)) {
    return Either.match(parseRowSelection(flags.rows.value), {
      onLeft: refuse,
      onRight: (rows) => Either.right(flags.dryRun ? ("none" as const) : { rows })
    })
  }
  if (flags.all || flags.dryRun) return Either.right(flags.dryRun ? "none" : "all")
  return refuse("Choose the rows to import with --rows (for example 1,3-5) or --all, or look first with --dry-run.")
}

const analysisTable = (rows: ReadonlyArray<ContactImportRow>) =>
  table(
    ["ROW", "NAME", "TYPE", "UTR", "PARTNER UTR", "VERIFIED", "DUPLICATE OF", "SKIP REASON"],
    rows.map((row) => [
      String(row.rowId),
      row.subcontractor?.name.replace(/\s+/g, " ") ?? "",
      row.subcontractor?.cisDetails.type ?? "",
      row.subcontractor?.cisDetails.utr ?? "",
      row.subcontractor?.cisDetails.partnerUtr ?? "",
      row.verification ? `${row.verification.taxTreatment} ${row.verification.verificationDate}` : "",
      row.duplicateOf ?? "",
      row.skipReason ?? ""
    ])
  )

const count = (n: number) => n.toLocaleString("en-GB")

const plural = (n: number, one: string) => `${count(n)} ${one}${n === 1 ? "" : "s"}`

/** Redraws the bar in place on a terminal; elsewhere (a log, a pipe) prints it line by line. */
const showProgress = (done: number, total: number) =>
  process.stdout.isTTY
    ? Effect.sync(() => process.stdout.write(`\r${progressBar(done, total)}${done >= total ? "\n" : ""}`))
    : Console.log(progressBar(done, total))

const importFile = (tenant: string, filePath: string, choice: Choice) =>
  Effect.gen(function* () {
    const imports = yield* ContactImport
    // The CSV reader (csv-parse) is imported by the one command that reads a file.
    const { csvImportFile } = yield* Effect.promise(() => import("@cisbook/adapters/csv/CsvImportFile"))
    const file = csvImportFile(filePath, path.basename(filePath))
    const analysis = Chunk.toReadonlyArray(
      yield* Stream.runCollect(yield* imports.analyse(file).pipe(asSupport(tenant)))
    )
    const importable = analysis.filter((row) => row.skipReason === null)
    const duplicates = analysis.filter((row) => row.duplicateOf !== null)
    yield* Console.log(analysisTable(analysis))
    yield* Console.log(
      `\n${plural(analysis.length, "row")}: ${count(importable.length)} can be imported, ${count(analysis.length - importable.length)} skipped, ${plural(duplicates.length, "likely duplicate")} of existing contacts.`
    )
    if (choice === "none") return yield* Console.log("Dry run: nothing was imported.")
    const selected = choice === "all" ? importable.map((row) => row.rowId) : [...choice.rows]
    if (selected.length === 0) {
      return yield* new ImportRefused({ message: "No row can be imported: every row has a skip reason." })
    }

    yield* Console.log(`\nImporting ${plural(selected.length, "row")} into ${tenant}...`)
    const result = yield* imports.importRows(file, selected, showProgress).pipe(asSupport(tenant))
    yield* Console.log(`\nImported ${plural(result.imported, "row")}; ${count(result.failed)} failed.`)
    const failures = result.rows.filter((row) => row.status === "Failed")
    if (failures.length > 0) {
      yield* Console.log(
        table(
          ["ROW", "REASON"],
          failures.map((row) => [String(row.rowId), row.reason ?? ""])
        )
      )
      yield* new ImportRefused({ message: `${plural(failures.length, "selected row")} failed; see the reasons above.` })
    }
  })

const importContacts = Command.make(
  "import",
  {
    tenant: Options.text("tenant").pipe(Options.withDescription("The code of the tenant to import into")),
    file: Options.file("file", { exists: "yes" }).pipe(
      Options.withDescription("The CSV file (the template's columns; see GET .../contacts/import/template)")
    ),
    rows: Options.text("rows").pipe(
      Options.optional,
      Options.withDescription("The data rows to import, for example 1,3-5")
    ),
    all: Options.boolean("all").pipe(Options.withDescription("Import every row that has no skip reason")),
    dryRun: Options.boolean("dry-run").pipe(Options.withDescription("Show the analysis only; import nothing"))
  },
  (flags) =>
    Either.match(choose(flags), {
      // Refused before the database is opened.
      onLeft: (refused) => reported(Effect.fail(refused)),
      onRight: (choice) => admin([TenantsLive, ContactImportLive], importFile(flags.tenant, flags.file, choice))
    })
).pipe(
  Command.withDescription(
    "Import subcontractors from a CSV file: shows the analysis, a progress bar while importing, and a summary; exit code 1 when a selected row failed"
  )
)

export const ContactsCommand = Command.make("contacts").pipe(
  Command.withDescription("Contacts"),
  Command.withSubcommands([importContacts, verifyContact])
)
