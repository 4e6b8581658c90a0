import { csvImportFile } from "@cisbook/adapters/csv/CsvImportFile"
import { importTemplateFileName } from "@cisbook/core/contacts/ImportTemplate"
import { ContactImport } from "@cisbook/core/contacts/ContactImport"
import { CisbookApi } from "@cisbook/sdk/Api"
import { ContactImportResultDto, ContactImportRowDto } from "@cisbook/sdk/ContactImportDtos"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { IDEMPOTENCY_KEY_HEADER, onceForKey } from "../middleware/IdempotencyMiddleware.js"
import { jsonArrayResponse } from "../responses/JsonArrayResponse.js"
import { uploadDigest } from "../uploads/UploadDigest.js"

const encodeRow = Schema.encodeSync(ContactImportRowDto)
const encodeResult = Schema.encodeSync(ContactImportResultDto)

export const ContactImportHandlers = HttpApiBuilder.group(CisbookApi, "contactImport", (handlers) =>
  Effect.gen(function* () {
    const imports = yield* ContactImport
    return handlers
      .handle("getContactImportTemplate", () =>
        imports.template().pipe(
          Effect.map((csv) =>
            HttpServerResponse.text(csv, {
              contentType: "text/csv; charset=utf-8",
              headers: { "content-disposition": `attachment; filename="${importTemplateFileName}"` }
            })
          )
        )
      )
      .handle("analyzeContactImport", ({ payload }) =>
        imports
          .analyse(csvImportFile(payload.file.path, payload.file.name))
          .pipe(Effect.map((rows) => jsonArrayResponse(rows, encodeRow)))
      )
      .handle("importContacts", ({ payload, request }) =>
        Effect.gen(function* () {
          const imported = imports
            .importRows(
              csvImportFile(payload.file.path, payload.file.name),
              payload.selections.map((selection) => selection.rowId)
            )
            .pipe(Effect.map((result) => HttpServerResponse.unsafeJson(encodeResult(result), { status: 201 })))
          const key = request.headers[IDEMPOTENCY_KEY_HEADER]
          if (key === undefined) return yield* imported
          // The form as received (the file's bytes, its name, the rows chosen), whatever boundary carried it.
          const form = JSON.stringify({
            file: yield* uploadDigest(payload.file.path),
            fileName: payload.file.name,
            selections: payload.selections
          })
          return yield* onceForKey(request, key, form, imported)
        })
      )
  })
)
