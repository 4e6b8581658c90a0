import { Cause, Chunk, Effect, Option, Stream } from "effect"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { Contact } from "./Contact.js"
import { contactCodeBase, contactCodeIssuer } from "./ContactCode.js"
import { creationEventJson, creationEvents, draftContact } from "./ContactDraft.js"
import type { ContactImportRow } from "./import/ContactImportRow.js"
import type { ImportColumnIndexes } from "./ImportColumns.js"
import { importedVerification, importNote } from "./import/ImportedVerification.js"
import type { ImportFile } from "./ImportFile.js"
import { analysedImportRows, checkImportFile } from "./import/ImportFileCheck.js"
import { IMPORT_ANALYSER_VERSION } from "./import/AnalyseImportRow.js"
import { type ImportAnalysisKey, ImportAnalysisRepo, type KeptAnalysis } from "./ImportAnalysisRepo.js"
import { IMPORT_BATCH_ROWS } from "./ImportLimits.js"
import { importTemplateCsv } from "./ImportTemplate.js"
import { type NotFound, ValidationFailed } from "../Errors.js"
import { ContactId, ImportAnalysisId, type TenantId } from "../Ids.js"
import { trustedInstance } from "../TrustedInstance.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "./ContactRepo.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"
import { retryWhenBusy, StoreBusy } from "../system/StoreBusy.js"
import type { EventJson } from "../events/EventJson.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { Transactor } from "../system/Transactor.js"
import type { Tenant } from "../tenants/Tenant.js"

export interface ImportRowResult {
  readonly rowId: number
  readonly status: "Imported" | "Failed"
  /** The new contact's code; null when the row failed. */
  readonly contactCode: string | null
  /** Why the row failed; null when it was imported. */
  readonly reason: string | null
}

export interface ContactImportResult {
  readonly imported: number
  readonly failed: number
  /** One per selected row, by row number. */
  readonly rows: ReadonlyArray<ImportRowResult>
}

/** Told after each batch: rows done (imported or failed) of the rows selected. */
export type ImportProgress = (done: number, total: number) => Effect.Effect<void>

/** On a store that cannot lock the codes, racing imports can pick the same code; the loser picks again, this many times at most. */
const CODE_ATTEMPTS = 5

const DAY_MS = 24 * 60 * 60 * 1000

/** How long an analysis is kept for the import that follows it (its key changes at midnight anyway). */
const ANALYSIS_KEPT_MS = DAY_MS

/** The oldest an analysis kept now may be. */
const keptSince = (now: Date) => new Date(now.getTime() - ANALYSIS_KEPT_MS)

const selectionsProblem = (detail: string) => ValidationFailed.one("selections", detail)

const failedRow = (rowId: number, reason: string): ImportRowResult => ({
  rowId,
  status: "Failed",
  contactCode: null,
  reason
})

interface Draft {
  readonly rowId: number
  readonly contact: Contact
  /** Its events' data as JSON text, for the code it is issued. */
  readonly eventJson: (code: string) => EventJson
}

/** A draft whose contact's code is issued, and its events' data. */
interface Coded {
  readonly rowId: number
  readonly contact: Contact
  readonly eventJson: EventJson
}

/** What a step of saving rows did: the rows it did, and those it failed with their reasons. */
interface Saved<B> {
  readonly done: ReadonlyArray<B>
  readonly failed: ReadonlyArray<ImportRowResult>
}

/** A batch of rows on its way: those that failed so far, and those still to save. */
interface Batch<A> {
  readonly failed: ReadonlyArray<ImportRowResult>
  readonly rows: ReadonlyArray<A>
}

export class ContactImport extends Effect.Service<ContactImport>()("core/ContactImport", {
  effect: Effect.gen(function* () {
    const repo = yield* ContactRepo
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator

    const analyses = yield* ImportAnalysisRepo

    /** The latest verification date a row may have now: a day ahead of today, for time zones (YYYY-MM-DD). */
    const latestVerificationDate = (now: Date) => new Date(now.getTime() + DAY_MS).toISOString().slice(0, 10)

    /** The key an analysis of the file made now is kept by; none when the file's reader cannot tell its digest. */
    const analysisKey = (file: ImportFile, now: Date): Effect.Effect<Option.Option<ImportAnalysisKey>> =>
      file.digest === undefined
        ? Effect.succeedNone
        : Effect.map(file.digest, (fileDigest) =>
            Option.some({
              fileDigest,
              analyserVersion: IMPORT_ANALYSER_VERSION,
              latestVerificationDate: latestVerificationDate(now)
            })
          )

    /** The file's data rows, each analysed, in batches of IMPORT_BATCH_ROWS. */
    const analysedBatches = (file: ImportFile, columns: ImportColumnIndexes, now: Date) =>
      analysedImportRows(file, columns, latestVerificationDate(now)).pipe(Stream.grouped(IMPORT_BATCH_ROWS))

    /**
     * The batches, kept under `key` for the tenant as they pass (the analysis as the file alone
     * says it, before duplicates are marked), and the analysis marked whole after the last one.
     * An analysis cut short (the answer abandoned) stays unfinished and is never reused.
     */
    const keptAs = (
      tenantId: TenantId,
      key: ImportAnalysisKey,
      now: Date,
      rowCount: number,
      batches: Stream.Stream<Chunk.Chunk<ContactImportRow>, ValidationFailed>
    ) =>
      Stream.unwrap(
        Effect.gen(function* () {
          const id = ImportAnalysisId.make(yield* ids.uuid)
          yield* analyses.begin(tenantId, id, key, now, keptSince(now))
          return batches.pipe(
            Stream.zipWithIndex,
            Stream.mapEffect(([rows, batch]) =>
              Effect.as(analyses.addBatch(tenantId, id, batch, Chunk.toReadonlyArray(rows)), rows)
            ),
            Stream.concat(Stream.execute(analyses.complete(tenantId, id, rowCount)))
          )
        })
      )

    /** The rows of a kept analysis, a batch at a time, as they were analysed. */
    const keptRows = (tenantId: TenantId, kept: KeptAnalysis) =>
      Stream.paginateChunkEffect(0, (batch) =>
        Effect.map(analyses.batch(tenantId, kept.id, batch), (rows) =>
          Option.match(rows, {
            onNone: () => [Chunk.empty<ContactImportRow>(), Option.none<number>()] as const,
            onSome: (found) => [Chunk.fromIterable(found), Option.some(batch + 1)] as const
          })
        )
      )

    /**
     * The file's data rows, each analysed, and how many there are: from the tenant's analysis of
     * the same bytes made today, when there is one (nothing in a row's analysis depends on
     * anything but the file and the day: the codes its contact gets are issued when it is saved,
     * against the codes taken by then), else read and checked from the file.
     */
    const rowsToImport = (tenantId: TenantId, file: ImportFile) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const key = yield* analysisKey(file, now)
        const kept = Option.isSome(key)
          ? yield* analyses.findWhole(tenantId, key.value, keptSince(now))
          : Option.none<KeptAnalysis>()
        if (Option.isSome(kept)) {
          return { rows: keptRows(tenantId, kept.value), rowCount: kept.value.rowCount }
        }
        const { columns, rows: rowCount } = yield* checkImportFile(file)
        return { rows: Stream.flattenChunks(analysedBatches(file, columns, now)), rowCount }
      })

    /** Marks the importable rows whose UTR an existing contact of the tenant has. */
    const withDuplicates = (tenantId: TenantId) => (rows: Chunk.Chunk<ContactImportRow>) => {
      const utrs = new Set(Chunk.filterMap(rows, (row) => Option.fromNullable(row.subcontractor?.cisDetails.utr)))
      if (utrs.size === 0) return Effect.succeed(rows)
      return Effect.map(repo.codesByUtr(tenantId, [...utrs]), (codes) =>
        Chunk.map(rows, (row) => {
          const utr = row.subcontractor?.cisDetails.utr
          const existing = utr ? codes.get(utr) : undefined
          return existing === undefined ? row : { ...row, duplicateOf: existing }
        })
      )
    }

    const analyseFor = (
      tenant: Tenant,
      file: ImportFile
    ): Effect.Effect<Stream.Stream<ContactImportRow, ValidationFailed>, ValidationFailed> =>
      Effect.gen(function* () {
        const { columns, rows: rowCount } = yield* checkImportFile(file)
        const now = yield* clock.now
        const key = yield* analysisKey(file, now)
        const batches = analysedBatches(file, columns, now)
        return Option.match(key, {
          onNone: () => batches,
          onSome: (key) => keptAs(tenant.id, key, now, rowCount, batches)
        }).pipe(
          // The next batch is read and analysed while this one's duplicates are looked up.
          Stream.buffer({ capacity: 1 }),
          Stream.mapEffect(withDuplicates(tenant.id)),
          Stream.flattenChunks
        )
      }).pipe(Effect.withSpan("ContactImport.analyse"))

    /**
     * Codes for the drafts, issued for good in a short transaction of their own while the
     * tenant's codes are locked: racing imports and creates wait for each other instead of
     * picking the same codes, and the lock is not held while the contacts are written. A store
     * that cannot lock is told by DuplicateKey to pick again; a store too busy for the transaction
     * just now (StoreBusy) is asked again after a wait.
     */
    const issueTogether = (tenantId: TenantId, drafts: ReadonlyArray<Draft>) =>
      transaction(
        Effect.gen(function* () {
          yield* repo.lockCodes(tenantId)
          const bases = [...new Set(drafts.map((draft) => contactCodeBase(draft.contact.name)))]
          const issue = contactCodeIssuer(new Set(yield* repo.issuedCodesAmong(tenantId, bases)))
          // The draft was validated when it was made, and an issued code is valid.
          const coded = drafts.map(({ contact, eventJson, rowId }): Coded => {
            const code = issue(contact.name)
            return { rowId, contact: trustedInstance(Contact, { ...contact, code }), eventJson: eventJson(code) }
          })
          yield* repo.issueCodes(
            tenantId,
            coded.map((draft) => draft.contact.code)
          )
          return coded
        })
      ).pipe(Effect.retry({ times: CODE_ATTEMPTS - 1 }), retryWhenBusy)

    /**
     * The coded drafts' contacts and their events, written together in one transaction. A code
     * issued whose contact is never written (the process stopped, or the row could not be
     * written) stays issued and unused, as a deleted contact's code does.
     */
    const writeTogether = (tenantId: TenantId, coded: ReadonlyArray<Coded>) =>
      transaction(
        Effect.gen(function* () {
          yield* repo.insertIssued(coded.map((draft) => draft.contact))
          yield* outbox.record(
            tenantId,
            coded.flatMap((draft) => creationEvents(draft.contact, draft.eventJson))
          )
          return coded
        })
      ).pipe(retryWhenBusy)

    const whyNotSaved = (cause: Cause.Cause<DuplicateKey | StoreBusy>) =>
      Option.match(Cause.failureOption(cause), {
        onNone: () => "It could not be saved because of an error on our side; import the row again.",
        onSome: (error) =>
          error instanceof StoreBusy
            ? "The database was too busy to save it, even after waiting a few seconds; import the row again in a minute."
            : "Its contact code was taken by a contact created at the same moment; import the row again."
      })

    /**
     * A step of saving rows (issuing their codes, or writing them) made for the rows together;
     * when that fails, for each one alone, so that one row that cannot be saved never takes the
     * others with it. A store still too busy after the waits fails the rows it was given: taking
     * them one by one would only wait longer for the same answer.
     */
    const eachAloneOnFailure = <A extends { readonly rowId: number }, B>(
      step: (rows: ReadonlyArray<A>) => Effect.Effect<ReadonlyArray<B>, DuplicateKey | StoreBusy>
    ) => {
      const run = (rows: ReadonlyArray<A>): Effect.Effect<Saved<B>> => {
        if (rows.length === 0) return Effect.succeed({ done: [], failed: [] })
        return step(rows).pipe(
          Effect.map((done): Saved<B> => ({ done, failed: [] })),
          Effect.catchAllCause((cause) => {
            if (Cause.isInterrupted(cause)) return Effect.interrupt
            const busy = Option.exists(Cause.failureOption(cause), (error) => error instanceof StoreBusy)
            if (busy || rows.length <= 1) {
              return Effect.logError(
                `Contact import: rows ${rows.map((row) => row.rowId).join(", ")} could not be saved`,
                cause
              ).pipe(Effect.as({ done: [], failed: rows.map((row) => failedRow(row.rowId, whyNotSaved(cause))) }))
            }
            return Effect.map(
              Effect.forEach(rows, (row) => run([row])),
              (each) => ({
                done: each.flatMap((one) => one.done),
                failed: each.flatMap((one) => one.failed)
              })
            )
          })
        )
      }
      return run
    }

    /** The batch's skipped rows as failures, and its other rows as contacts ready to be saved. */
    const draftBatch = (
      tenant: Tenant,
      fileName: string,
      rows: Chunk.Chunk<ContactImportRow>
    ): Effect.Effect<Batch<Draft>> =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const skipped: Array<ImportRowResult> = []
        const drafts: Array<Draft> = []
        for (const row of rows) {
          if (row.subcontractor === null) {
            skipped.push(failedRow(row.rowId, row.skipReason ?? "The row cannot be imported."))
            continue
          }
          const verification = importedVerification(row, importNote(fileName, row.rowId))
          const id = ContactId.make(yield* ids.uuid)
          const contact = draftContact(row.subcontractor, { id, tenantId: tenant.id, now, verification })
          // Turned into JSON here, while the batch before is being written, not in this batch's transaction.
          drafts.push({ rowId: row.rowId, contact, eventJson: creationEventJson(contact) })
        }
        return { failed: skipped, rows: drafts }
      })

    /** The batch's rows with their codes issued, and its rows failed so far. */
    const issueBatch = (tenantId: TenantId) => {
      const issue = eachAloneOnFailure((drafts: ReadonlyArray<Draft>) => issueTogether(tenantId, drafts))
      return (batch: Batch<Draft>): Effect.Effect<Batch<Coded>> =>
        Effect.map(issue(batch.rows), ({ done, failed }) => ({ failed: [...batch.failed, ...failed], rows: done }))
    }

    /** The batch's rows' results, by row number. */
    const writeBatch = (tenantId: TenantId) => {
      const write = eachAloneOnFailure((coded: ReadonlyArray<Coded>) => writeTogether(tenantId, coded))
      return (batch: Batch<Coded>): Effect.Effect<ReadonlyArray<ImportRowResult>> =>
        Effect.map(write(batch.rows), ({ done, failed }) =>
          [
            ...batch.failed,
            ...failed,
            ...done.map(({ contact, rowId }): ImportRowResult => ({
              rowId,
              status: "Imported",
              contactCode: contact.code,
              reason: null
            }))
          ].sort((a, b) => a.rowId - b.rowId)
        )
    }

    const importFor = (
      tenant: Tenant,
      file: ImportFile,
      rowIds: Iterable<number>,
      progress: ImportProgress
    ): Effect.Effect<ContactImportResult, ValidationFailed> =>
      Effect.gen(function* () {
        const selected: ReadonlySet<number> = new Set(rowIds)
        if (selected.size === 0) return yield* selectionsProblem("Select at least one row to import.")
        const { rowCount, rows } = yield* rowsToImport(tenant.id, file)
        const total = selected.size
        const results = yield* rows.pipe(
          Stream.filter((row) => selected.has(row.rowId)),
          Stream.grouped(IMPORT_BATCH_ROWS),
          Stream.mapEffect((batch) => draftBatch(tenant, file.name, batch)),
          // The next batch is read, analysed and drafted while this one's codes are issued.
          Stream.buffer({ capacity: 1 }),
          Stream.mapEffect(issueBatch(tenant.id)),
          // The next batch's codes are issued while this one is written, and two batches are
          // written at once (each in its own transaction; their results kept in row order).
          Stream.buffer({ capacity: 1 }),
          Stream.mapEffect(writeBatch(tenant.id), { concurrency: 2 }),
          Stream.runFoldEffect([] as Array<ImportRowResult>, (all, batch) => {
            all.push(...batch)
            return Effect.as(progress(all.length, total), all)
          })
        )
        const absent = [...selected].filter((rowId) => rowId > rowCount).sort((a, b) => a - b)
        if (absent.length > 0) {
          for (const rowId of absent) {
            results.push(failedRow(rowId, `There is no data row ${rowId}: the file has ${rowCount}.`))
          }
          yield* progress(results.length, total)
        }
        const imported = results.filter((row) => row.status === "Imported").length
        return { imported, failed: results.length - imported, rows: results }
      }).pipe(Effect.withSpan("ContactImport.import"))

    const noProgress: ImportProgress = () => Effect.void

    /** The template CSV, for a member of the tenant. */
    const template = (): Effect.Effect<string, NotFound, CurrentTenant> => Effect.as(CurrentTenant, importTemplateCsv)

    /**
     * Analyses every data row of the file and creates nothing but the analysis kept for the
     * file's import. The file is checked whole first (CSV, at least one and at most 10,000 data
     * rows); the rows then stream out as they are analysed, so a large file is never held in memory.
     */
    const analyse = (file: ImportFile) => CurrentTenant.pipe(Effect.flatMap(({ tenant }) => analyseFor(tenant, file)))

    /**
     * Imports the selected rows of the file (analysed again, unless the tenant's analysis of the
     * same file made today is kept), each one a supplier and CIS
     * subcontractor with an import note (and its manual verification, when the row has one).
     * A selected row that is skipped, or that the file does not have, fails with its reason;
     * the others are imported all the same.
     */
    const importRows = (
      file: ImportFile,
      rowIds: Iterable<number>,
      progress: ImportProgress = noProgress
    ): Effect.Effect<ContactImportResult, NotFound | ValidationFailed, CurrentTenant> =>
      CurrentTenant.pipe(Effect.flatMap(({ tenant }) => importFor(tenant, file, rowIds, progress)))

    return { template, analyse, importRows } as const
  })
}) {}
