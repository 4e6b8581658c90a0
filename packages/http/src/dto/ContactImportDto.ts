// The contact import's mapping module: its analysis and results as the sdk's ContactImportDtos, for the handlers.
import type { ContactImportResult } from "@cisbook/core/contacts/ContactImport"
import type { ContactImportRow } from "@cisbook/core/contacts/ImportAnalysis"
import { importTemplateFileName } from "@cisbook/core/contacts/ImportTemplate"
import { type ContactImportResultDto, ContactImportRowDto } from "@cisbook/sdk/ContactImportDtos"
import { HttpServerResponse } from "@effect/platform"
import { Schema, type Stream } from "effect"
import { jsonArrayResponse } from "../responses/JsonArrayResponse.js"

/** The template CSV, as a file to save. */
export const contactImportTemplateResponse = (csv: string) =>
  HttpServerResponse.text(csv, {
    contentType: "text/csv; charset=utf-8",
    headers: { "content-disposition": `attachment; filename="${importTemplateFileName}"` }
  })

const encodeRow = Schema.encodeSync(ContactImportRowDto)

/**
 * The import's result as ContactImportResultDto encodes it, built directly rather than by the
 * schema (a result has a row for each of up to 10,000 selected rows); held equal by tests.
 */
export const encodeContactImportResult = (result: ContactImportResult): typeof ContactImportResultDto.Encoded => ({
  imported: result.imported,
  failed: result.failed,
  rows: result.rows.map(({ contactCode, reason, rowId, status }) => ({ rowId, status, contactCode, reason }))
})

/** The analysis, a JSON array of ContactImportRowDto written as the rows are analysed. */
export const contactImportRowsResponse = <E>(rows: Stream.Stream<ContactImportRow, E>) =>
  jsonArrayResponse(rows, encodeRow)

/**
 * The import's ContactImportResultDto, 201, as a response: an import with an idempotency key is
 * answered again from the response it stored.
 */
export const contactImportResultResponse = (result: ContactImportResult) =>
  HttpServerResponse.unsafeJson(encodeContactImportResult(result), { status: 201 })
