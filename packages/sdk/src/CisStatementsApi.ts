import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { forTenantMembers } from "./Access.js"
import { ForbiddenProblem, NotFoundProblem, ValidationProblem } from "./Problem.js"
import { ReceivedStatementDto, ReceivedStatementListParams } from "./ReceivedStatementDtos.js"
import { tenantParam } from "./TenantsApi.js"

const statementParam = HttpApiSchema.param("id", Schema.String)

const reconciliation =
  "Each statement's reconciliation is worked out when read, against the tenant's own sales-invoice payments from contact dated in the statement's tax month (6th to 5th): payments (how many), deducted (the sum of their cisDeduction shares, as in the payments report), difference (the statement's deducted less that sum) and status Matched (difference 0), Different or NoPayments."

export class CisStatementsApi extends HttpApiGroup.make("cisStatements")
  .add(
    HttpApiEndpoint.get("listCisStatements")`/tenants/${tenantParam}/cis-statements`
      .setUrlParams(ReceivedStatementListParams)
      .addSuccess(Schema.Array(ReceivedStatementDto))
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The statements the tenant received from connected contractors")
      .annotate(
        OpenApi.Description,
        `Latest periodEnd first, within from and to when given (both included; each a date, else 400 naming it; from after to is 400 naming from). ${reconciliation}`
      )
  )
  .add(
    HttpApiEndpoint.get("getCisStatement")`/tenants/${tenantParam}/cis-statements/${statementParam}`
      .addSuccess(ReceivedStatementDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One statement the tenant received, with its reconciliation")
      .annotate(OpenApi.Description, `Another tenant's statement, or an id that is not one, is 404. ${reconciliation}`)
  )
  .add(
    HttpApiEndpoint.get("getCisStatementPdf")`/tenants/${tenantParam}/cis-statements/${statementParam}/pdf`
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "A statement the tenant received, as the contractor issued it (PDF)")
      .annotate(
        OpenApi.Description,
        'The same PDF the contractor mailed or keeps (application/pdf, content-disposition: attachment; filename="statement-<contractor tenant>-<periodEnd>.pdf"). Another tenant\'s statement, or an id that is not one, is 404.'
      )
  )
  .annotate(OpenApi.Title, "Received statements")
  .annotate(
    OpenApi.Description,
    "Payment and deduction statements delivered into the tenant by the contractors it is connected to (as their subcontractor): one per line of each of their accepted monthly returns, delivered once, each with the cis-statement.received event, and reconciled with the tenant's own books"
  )
  .pipe(forTenantMembers) {}
