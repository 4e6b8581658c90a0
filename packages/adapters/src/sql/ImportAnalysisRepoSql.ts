import type { ContactImportRow } from "@cisbook/core/contacts/ImportAnalysis"
import { ImportAnalysisRepo } from "@cisbook/core/contacts/ImportAnalysisRepo"
import { ImportAnalysisId } from "@cisbook/core/Ids"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"

/**
 * The analyses in contact_import_analyses, their rows a batch to a row of
 * contact_import_analysis_batches as JSON text: rows the analysis made, read back as they were
 * written, never queried inside (text costs neither side a jsonb conversion).
 */
export const ImportAnalysisRepoSql = Layer.effect(
  ImportAnalysisRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return ImportAnalysisRepo.of({
      begin: (tenantId, id, key, at, forgetBefore) =>
        Effect.zipRight(
          sql`DELETE FROM contact_import_analyses WHERE tenant_id = ${tenantId} AND created_at < ${forgetBefore}`,
          sql`
            INSERT INTO contact_import_analyses
              (tenant_id, id, file_digest, analyser_version, latest_verification_date, row_count, created_at)
            VALUES (${tenantId}, ${id}, ${key.fileDigest}, ${key.analyserVersion}, ${key.latestVerificationDate}, NULL, ${at})`
        ).pipe(Effect.asVoid, Effect.orDie),
      addBatch: (tenantId, id, batch, rows) =>
        sql`
          INSERT INTO contact_import_analysis_batches (tenant_id, analysis_id, batch, rows_json)
          VALUES (${tenantId}, ${id}, ${batch}, ${JSON.stringify(rows)})`.pipe(Effect.asVoid, Effect.orDie),
      complete: (tenantId, id, rowCount) =>
        sql`
          UPDATE contact_import_analyses SET row_count = ${rowCount}
          WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      findWhole: (tenantId, key, notBefore) =>
        sql<{ readonly id: string; readonly rowCount: number }>`
          SELECT id, row_count FROM contact_import_analyses
          WHERE tenant_id = ${tenantId} AND file_digest = ${key.fileDigest}
            AND analyser_version = ${key.analyserVersion}
            AND latest_verification_date = ${key.latestVerificationDate}
            AND row_count IS NOT NULL AND created_at >= ${notBefore}
          ORDER BY created_at DESC LIMIT 1`.pipe(
          Effect.map(([row]) =>
            row === undefined
              ? Option.none()
              : Option.some({ id: ImportAnalysisId.make(row.id), rowCount: row.rowCount })
          ),
          Effect.orDie
        ),
      batch: (tenantId, id, batch) =>
        sql<{ readonly rowsJson: string }>`
          SELECT rows_json FROM contact_import_analysis_batches
          WHERE tenant_id = ${tenantId} AND analysis_id = ${id} AND batch = ${batch}`.pipe(
          Effect.map(([row]) =>
            row === undefined ? Option.none() : Option.some(JSON.parse(row.rowsJson) as ReadonlyArray<ContactImportRow>)
          ),
          Effect.orDie
        )
    })
  })
)
