import { csvImportFile } from "@cisbook/adapters/csv/CsvImportFile"
import { ContactImport } from "@cisbook/core/contacts/ContactImport"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import {
  contactImportResultResponse,
  contactImportRowsResponse,
  contactImportTemplateResponse
} from "../dto/ContactImportDto.js"
import { IDEMPOTENCY_KEY_HEADER, onceForKey } from "../middleware/IdempotencyMiddleware.js"
import { uploadDigest } from "../uploads/UploadDigest.js"

export const ContactImportHandlers = HttpApiBuilder.group(CisbookApi, "contactImport", (handlers) =>
  Effect.gen(function* () {
    const imports = yield* ContactImport
    return handlers
      .handle("getContactImportTemplate", () => imports.template().pipe(Effect.map(contactImportTemplateResponse)))
      .handle("analyzeContactImport", ({ payload }) =>
        imports.analyse(csvImportFile(payload.file.path, payload.file.name)).pipe(Effect.map(contactImportRowsResponse))
      )
      .handle("importContacts", ({ payload, request }) =>
        Effect.gen(function* () {
          const imported = imports
            .importRows(
              csvImportFile(payload.file.path, payload.file.name),
              payload.selections.map((selection) => selection.rowId)
            )
            .pipe(Effect.map(contactImportResultResponse))
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
