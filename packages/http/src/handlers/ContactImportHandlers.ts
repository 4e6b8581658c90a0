import { csvImportFile } from "@cisbook/adapters/csv/CsvImportFile"
import { importTemplateFileName } from "@cisbook/core/contacts/import/ImportTemplate"
import { CurrentUser } from "@cisbook/core/CurrentUser"
import { ContactImport } from "@cisbook/core/usecases/ContactImport"
import { CisbookApi } from "@cisbook/sdk/Api"
import { ContactImportRowDto } from "@cisbook/sdk/ContactImportDtos"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import { jsonArrayResponse } from "../JsonArrayResponse.js"

const encodeRow = Schema.encodeSync(ContactImportRowDto)

export const ContactImportHandlers = HttpApiBuilder.group(CisbookApi, "contactImport", (handlers) =>
  Effect.gen(function* () {
    const imports = yield* ContactImport
    return handlers
      .handle("getContactImportTemplate", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => imports.template(user, path.tenant)),
          Effect.map((csv) =>
            HttpServerResponse.text(csv, {
              contentType: "text/csv; charset=utf-8",
              headers: { "content-disposition": `attachment; filename="${importTemplateFileName}"` }
            })
          )
        )
      )
      .handle("analyzeContactImport", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) =>
            imports.analyse(user, path.tenant, csvImportFile(payload.file.path, payload.file.name))
          ),
          Effect.map((rows) => jsonArrayResponse(rows, encodeRow))
        )
      )
      .handle("importContacts", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) =>
            imports.importRows(
              user,
              path.tenant,
              csvImportFile(payload.file.path, payload.file.name),
              payload.selections.map((selection) => selection.rowId)
            )
          )
        )
      )
  })
)
