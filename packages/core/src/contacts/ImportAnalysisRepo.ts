import { Context, type Effect, type Option } from "effect"
import type { ImportAnalysisId, TenantId } from "../Ids.js"
import type { ContactImportRow } from "./import/ContactImportRow.js"

/**
 * Which analysis of an import file can stand for another: the same bytes (the file's SHA-256),
 * judged by the same analyser, on the same day (a verification may be dated up to a day ahead
 * of it, so a row's verdict can change at midnight).
 */
export interface ImportAnalysisKey {
  readonly fileDigest: string
  readonly analyserVersion: number
  /** YYYY-MM-DD. */
  readonly latestVerificationDate: string
}

/** An analysis kept whole, ready to be reused. */
export interface KeptAnalysis {
  readonly id: ImportAnalysisId
  /** The file's data rows. */
  readonly rowCount: number
}

/**
 * The analyses of the tenant's import files, kept so that the import of a file just analysed
 * reuses its rows instead of reading and checking the file again. Written a batch at a time as
 * the analysis streams out; reused only once it is whole.
 */
export class ImportAnalysisRepo extends Context.Tag("core/ImportAnalysisRepo")<
  ImportAnalysisRepo,
  {
    /** Starts keeping an analysis made at `at`, and forgets the tenant's analyses made before `forgetBefore`. */
    readonly begin: (
      tenantId: TenantId,
      id: ImportAnalysisId,
      key: ImportAnalysisKey,
      at: Date,
      forgetBefore: Date
    ) => Effect.Effect<void>
    /** Keeps the analysis's batch number `batch` (from 0), its rows in file order. */
    readonly addBatch: (
      tenantId: TenantId,
      id: ImportAnalysisId,
      batch: number,
      rows: ReadonlyArray<ContactImportRow>
    ) => Effect.Effect<void>
    /** Marks the analysis whole, with the file's number of data rows: it may be reused from now on. */
    readonly complete: (tenantId: TenantId, id: ImportAnalysisId, rowCount: number) => Effect.Effect<void>
    /** The newest whole analysis of the tenant with this key made at or after `notBefore`. */
    readonly findWhole: (
      tenantId: TenantId,
      key: ImportAnalysisKey,
      notBefore: Date
    ) => Effect.Effect<Option.Option<KeptAnalysis>>
    /** The rows of the analysis's batch number `batch`; none past its last batch. */
    readonly batch: (
      tenantId: TenantId,
      id: ImportAnalysisId,
      batch: number
    ) => Effect.Effect<Option.Option<ReadonlyArray<ContactImportRow>>>
  }
>() {}
