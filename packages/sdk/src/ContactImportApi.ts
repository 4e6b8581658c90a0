import { importColumns } from "@cisbook/core/contacts/ImportColumns"
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_ROWS } from "@cisbook/core/contacts/ImportLimits"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ContactImportResultDto, ContactImportRowDto, ImportSelections } from "./ContactImportDtos.js"
import {
  ConflictProblem,
  ContentTooLargeProblem,
  ForbiddenProblem,
  NotFoundProblem,
  ValidationProblem
} from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"
import { forTenantMembers } from "./Access.js"

const fileDescription = `The CSV file: UTF-8 (with or without a byte order mark), comma, semicolon or tab delimited, a header row then at most ${MAX_IMPORT_ROWS.toLocaleString("en-GB")} data rows; at most ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MiB`

// The platform's own messages would show the body or its parts, temporary paths and text included.
const notAForm = () => "Send a multipart/form-data body with the CSV in the part named file"

const oneFile = () => "Send exactly one file, the CSV, in the part named file"

// One file part, documented as the binary it is on the wire (not as the array the platform decodes).
const file = Schema.transform(
  Schema.Array(Multipart.FileSchema.annotations({ message: oneFile }))
    .annotations({ message: oneFile })
    .pipe(Schema.itemsCount(1, { message: oneFile })),
  Multipart.FileSchema,
  { strict: true, decode: ([only]) => only!, encode: (only) => [only] }
).annotations({ jsonSchema: { type: "string", format: "binary", description: fileDescription } })

const fileRules = `Header names match case-insensitively, ignoring spaces and punctuation (first name = FIRST_NAME = FirstName); missing columns are allowed and unknown ones ignored. Blank lines are left out. A file that is not CSV, has no data rows or more than ${MAX_IMPORT_ROWS.toLocaleString("en-GB")} is 400 (errors.file); a file over ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MiB is 413.`

export class ContactImportApi extends HttpApiGroup.make("contactImport")
  .add(
    HttpApiEndpoint.get("getContactImportTemplate")`/tenants/${tenantParam}/contacts/import/template`
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" }))
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The CSV template for a contact import: its header and one example row")
      .annotate(
        OpenApi.Description,
        `Columns: ${importColumns.join(", ")}. Flags (VATRegistered) accept true/false, yes/no, y/n, 1/0; TaxStatus accepts Gross, Net, Unmatched and gross, net, higher, 0, 20, 30; VerificationDate is YYYY-MM-DD or DD/MM/YYYY.`
      )
  )
  .add(
    HttpApiEndpoint.post("analyzeContactImport")`/tenants/${tenantParam}/contacts/import/analyze`
      .setPayload(HttpApiSchema.Multipart(Schema.Struct({ file }).annotations({ message: notAForm })))
      .addSuccess(Schema.Array(ContactImportRowDto))
      .addError(ValidationProblem)
      .addError(ContentTooLargeProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Analyse a CSV file of subcontractors; creates nothing")
      .annotate(
        OpenApi.Description,
        `One entry per data row: the subcontractor it would become, or why it is skipped (no name; an invalid type, UTR, NI number, company number, email, VAT rate, flag or verification; CIS details its type needs missing). A row whose UTR an existing contact of the tenant has carries that contact's code in duplicateOf, and is not skipped for it. ${fileRules}`
      )
  )
  .add(
    HttpApiEndpoint.post("importContacts")`/tenants/${tenantParam}/contacts/import`
      .setPayload(
        HttpApiSchema.Multipart(
          Schema.Struct({ file, selections: ImportSelections }).annotations({ message: notAForm })
        )
      )
      .addSuccess(ContactImportResultDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(ConflictProblem)
      .addError(ContentTooLargeProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Import the selected rows of a CSV file as suppliers and CIS subcontractors")
      .annotate(
        OpenApi.Description,
        `Analyses the file again, then makes each selected row a supplier and CIS subcontractor, its code generated from its name. Its verification's message is the import note (the file name and row). A row with VerificationNumber, VerificationDate and TaxStatus is recorded as verified by hand (source Manual). Each imported row records contact.created and subcontractor.created. One bad row never stops the others: a selected row with a skip reason, or a rowId the file does not have, is Failed with its reason. Each row is imported whole (contact, code and events) or not at all. selections missing, malformed or empty is 400 (errors.selections). ${fileRules}`
      )
  )
  .annotate(OpenApi.Title, "Contact import")
  .annotate(
    OpenApi.Description,
    "Subcontractors from a CSV file: the template, an analysis that creates nothing, and the import of chosen rows."
  )
  .pipe(forTenantMembers) {}
