// The contact import's mapping module: its analysis and results as the sdk's ContactImportDtos, for the handlers.
import type { ContactImportResult } from "@cisbook/core/contacts/ContactImport"
import type { ContactImportRow } from "@cisbook/core/contacts/ImportAnalysis"
import { importTemplateFileName } from "@cisbook/core/contacts/ImportTemplate"
import { ContactImportResultDto, ContactImportRowDto } from "@cisbook/sdk/ContactImportDtos"
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
const encodeResult = Schema.encodeSync(ContactImportResultDto)

/** The analysis, a JSON array of ContactImportRowDto written as the rows are analysed. */
export const contactImportRowsResponse = <E>(rows: Stream.Stream<ContactImportRow, E>) =>
  jsonArrayResponse(rows, encodeRow)

/**
 * The import's ContactImportResultDto, 201, as a response: an import with an idempotency key is
 * answered again from the response it stored.
 */
export const contactImportResultResponse = (result: ContactImportResult) =>
  HttpServerResponse.unsafeJson(encodeResult(result), { status: 201 })
