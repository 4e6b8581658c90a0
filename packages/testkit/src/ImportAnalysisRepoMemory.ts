import type { ContactImportRow } from "@cisbook/core/contacts/ImportAnalysis"
import { type ImportAnalysisKey, ImportAnalysisRepo } from "@cisbook/core/contacts/ImportAnalysisRepo"
import type { ImportAnalysisId, TenantId } from "@cisbook/core/Ids"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

interface Kept {
  readonly tenantId: TenantId
  readonly id: ImportAnalysisId
  readonly key: ImportAnalysisKey
  readonly at: Date
  readonly rowCount: number | null
  /** Each batch's rows as JSON, as the SQL table keeps them: what is read back is a copy. */
  readonly batches: ReadonlyMap<number, string>
}

const sameKey = (a: ImportAnalysisKey, b: ImportAnalysisKey) =>
  a.fileDigest === b.fileDigest &&
  a.analyserVersion === b.analyserVersion &&
  a.latestVerificationDate === b.latestVerificationDate

/** The analyses of import files, in memory, oldest first. */
export const ImportAnalysisRepoMemory = Layer.effect(
  ImportAnalysisRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const kept = yield* journal.ref<ReadonlyArray<Kept>>([])
    const update = (tenantId: TenantId, id: ImportAnalysisId, f: (analysis: Kept) => Kept) =>
      Ref.update(kept, (all) =>
        all.map((analysis) => (analysis.tenantId === tenantId && analysis.id === id ? f(analysis) : analysis))
      )
    const find = (tenantId: TenantId, id: ImportAnalysisId) =>
      Effect.map(Ref.get(kept), (all) => all.find((analysis) => analysis.tenantId === tenantId && analysis.id === id))
    return ImportAnalysisRepo.of({
      begin: (tenantId, id, key, at, forgetBefore) =>
        Ref.update(kept, (all) => [
          ...all.filter((analysis) => analysis.tenantId !== tenantId || analysis.at >= forgetBefore),
          { tenantId, id, key, at, rowCount: null, batches: new Map() }
        ]),
      addBatch: (tenantId, id, batch, rows) =>
        update(tenantId, id, (analysis) => ({
          ...analysis,
          batches: new Map(analysis.batches).set(batch, JSON.stringify(rows))
        })),
      complete: (tenantId, id, rowCount) => update(tenantId, id, (analysis) => ({ ...analysis, rowCount })),
      findWhole: (tenantId, key, notBefore) =>
        Effect.map(Ref.get(kept), (all) => {
          const found = all
            .filter(
              (analysis) =>
                analysis.tenantId === tenantId &&
                sameKey(analysis.key, key) &&
                analysis.rowCount !== null &&
                analysis.at >= notBefore
            )
            .at(-1)
          return found === undefined ? Option.none() : Option.some({ id: found.id, rowCount: found.rowCount! })
        }),
      batch: (tenantId, id, batch) =>
        Effect.map(find(tenantId, id), (analysis) =>
          Option.map(
            Option.fromNullable(analysis?.batches.get(batch)),
            (json) => JSON.parse(json) as ReadonlyArray<ContactImportRow>
          )
        )
    })
  })
)
