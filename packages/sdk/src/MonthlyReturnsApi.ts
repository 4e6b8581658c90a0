import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  CreateMonthlyReturnRequest,
  MonthlyReturnDraftDto,
  MonthlyReturnDraftParams,
  MonthlyReturnDto
} from "./MonthlyReturnDtos.js"
import { ConflictProblem, ForbiddenProblem, NotFoundProblem, RefusedProblem, ValidationProblem } from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"
import { forTenantMembers } from "./Access.js"

const returnParam = HttpApiSchema.param("id", Schema.String)

export class MonthlyReturnsApi extends HttpApiGroup.make("monthlyReturns")
  .add(
    HttpApiEndpoint.post("createMonthlyReturn")`/tenants/${tenantParam}/monthly-returns`
      .setPayload(CreateMonthlyReturnRequest)
      .addSuccess(MonthlyReturnDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(RefusedProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "File a CIS300 monthly return")
      .annotate(
        OpenApi.Description,
        "periodEnd is the 5th that ends the tax month, not after the current tax month's end. Each line names a verified CIS subcontractor of the tenant once (else 400 naming lines[i].contact); materials are at most grossAmount and deducted at most the treatment's rate (Gross 0 %, Net 20 %, Unmatched 30 %) of grossAmount less materials, rounded to the penny. A month with no payments to subcontractors is a nil return: nilReturn true and no lines (lines with it are 400 naming lines); inactive true, with a nil return only, declares that the contractor expects to pay no subcontractors in the next six months. The tenant's own CIS details must be complete (400), and its CIS scheme registration set (400 naming employerReference and accountsOfficeReference; PUT /tenants/{tenant}/settings/cis-scheme). 409 when the tenant already has a Submitted or Accepted return for the month. With fromPayments true the return is the month's draft as it stands (GET .../monthly-returns/draft): its lines with their payments' ids, or a nil return; lines or nilReturn with it are 400, a VerifyAgain warning is 400 naming lines[i].contact, and the deduction ceiling is not applied (the shares are the service's own arithmetic). The return is queued to the tax authority at once and answered Accepted or Rejected; when Accepted and the tenant emails statements automatically, each subcontractor with an email address is sent a payment and deduction statement."
      )
  )
  .add(
    HttpApiEndpoint.get("listMonthlyReturns")`/tenants/${tenantParam}/monthly-returns`
      .addSuccess(Schema.Array(MonthlyReturnDto))
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The tenant's monthly returns, latest tax month first")
      .annotate(OpenApi.Description, "Every return the tenant has filed, rejected ones included.")
  )
  .add(
    HttpApiEndpoint.get("getMonthlyReturnDraft")`/tenants/${tenantParam}/monthly-returns/draft`
      .setUrlParams(MonthlyReturnDraftParams)
      .addSuccess(MonthlyReturnDraftDto)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The return the month's payments to CIS subcontractors draft")
      .annotate(
        OpenApi.Description,
        "One line per CIS subcontractor paid in the tax month ending periodEnd (a payment of one of its bills dated from the 6th of the month before to the 5th), ordered by name then code: the sums of its payments' shares, and the contact's name, UTR, verification number and treatment now. No payment: no lines and nilReturn true. dueDate is the 19th. warnings say what to check before filing it (POST with fromPayments): VerifyAgain, MaterialsNotBelowGross, TreatmentChanged. periodEnd follows the POST's rules (400 naming periodEnd)."
      )
  )
  .add(
    HttpApiEndpoint.get("getMonthlyReturn")`/tenants/${tenantParam}/monthly-returns/${returnParam}`
      .addSuccess(MonthlyReturnDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One monthly return")
      .annotate(OpenApi.Description, "Another tenant's return, or an id that is not one, is 404.")
  )
  .annotate(OpenApi.Title, "Monthly returns")
  .annotate(OpenApi.Description, "CIS300 monthly returns to the tax authority, and their answers")
  .pipe(forTenantMembers) {}
