import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  CreateMonthlyReturnRequest,
  MonthlyReturnDraftDto,
  MonthlyReturnDraftParams,
  MonthlyReturnDto,
  ObligationDto,
  ObligationParams
} from "./MonthlyReturnDtos.js"
import { ReturnStatementDto } from "./ReturnStatementDtos.js"
import { ConflictProblem, ForbiddenProblem, NotFoundProblem, RefusedProblem, ValidationProblem } from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"
import { forTenantMembers } from "./Access.js"

const returnParam = HttpApiSchema.param("id", Schema.String)
const contactParam = HttpApiSchema.param("contact", Schema.String)

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
      .annotate(OpenApi.Summary, "File a CIS300 monthly return, with the contractor's declarations")
      .annotate(
        OpenApi.Description,
        "periodEnd is the 5th that ends the tax month, not after the current tax month's end. Each line names a verified CIS subcontractor of the tenant once (else 400 naming lines[i].contact); materials are at most grossAmount and deducted at most the treatment's rate (Gross 0 %, Net 20 %, Unmatched 30 %) of grossAmount less materials, rounded to the penny. A month with no payments to subcontractors is a nil return: nilReturn true and no lines (lines with it are 400 naming lines); inactive true, with a nil return only, declares that the contractor expects to pay no subcontractors in the next six months. The declarations are the contractor's: a return with lines needs declarations.employmentStatus, declarations.subcontractorsVerified and declarations.informationCorrect all true, a nil return declarations.informationCorrect true; one missing or not true is 400 naming it. They are recorded with who made them (the API key's id, else the user's) and when, and go on the CIS300 as made. The tenant's own CIS details must be complete (400), and its CIS scheme registration set (400 naming employerReference and accountsOfficeReference; PUT /tenants/{tenant}/settings/cis-scheme). 409 when the tenant already has a Submitted or Accepted return for the month. With fromPayments true the return is the month's draft as it stands (GET .../monthly-returns/draft): its lines with their payments' ids, or a nil return; lines or nilReturn with it are 400, a VerifyAgain warning is 400 naming lines[i].contact, a payment dated in the month recorded while the return was being filed is 409 (look at the draft again), and the deduction ceiling is not applied (the shares are the service's own arithmetic). The return is queued to the tax authority at once and answered Accepted or Rejected; when Accepted and the tenant emails statements automatically, each subcontractor with an email address is sent a payment and deduction statement."
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
    HttpApiEndpoint.get("listObligations")`/tenants/${tenantParam}/monthly-returns/obligations`
      .setUrlParams(ObligationParams)
      .addSuccess(Schema.Array(ObligationDto))
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(
        OpenApi.Summary,
        "Each tax month's return: filed, due, overdue or not needed, and its late-filing penalty"
      )
      .annotate(
        OpenApi.Description,
        "One entry per tax month whose periodEnd lies between from and to (default: the twelve tax months ending with the current one), from the tax month of the CIS scheme registration's registeredFrom on (none before it; [] without a registration), oldest first. A from or to that is not a date, from after to, or more than 120 tax months at once is 400 naming the member."
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
  .add(
    HttpApiEndpoint.get("listReturnStatements")`/tenants/${tenantParam}/monthly-returns/${returnParam}/statements`
      .addSuccess(Schema.Array(ReturnStatementDto))
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The payment and deduction statements of an accepted return")
      .annotate(
        OpenApi.Description,
        "One entry per line of the return, in its order: the subcontractor and the amounts as on the return, emailedTo and emailedAt once the statement's mail was handed to the SMTP server (the tenant's autoEmailStatements, to a subcontractor with an email address), deliveredTo once it was delivered into the subcontractor's own tenant (the contact is the tenant's side of a Connected connection; the subcontractor finds it under GET /tenants/{tenant}/cis-statements). [] for a return that is not Accepted. Another tenant's return, or an id that is not one, is 404."
      )
  )
  .add(
    HttpApiEndpoint.get(
      "getReturnStatementPdf"
    )`/tenants/${tenantParam}/monthly-returns/${returnParam}/statements/${contactParam}/pdf`
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "application/pdf" }))
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "A subcontractor's payment and deduction statement, as a PDF")
      .annotate(
        OpenApi.Description,
        "The statement as it was mailed or delivered (application/pdf, content-disposition: attachment; filename=\"statement-JOHNSMIT-2026-06-05.pdf\"): the contractor's name, employer reference and UTR, the tax month's end, the subcontractor's name and UTR, the verification number where the treatment is Unmatched, gross paid (without VAT), materials and the amount deducted. contact is the subcontractor's contact code, in any case. 404 for a contact not on the return, a return that is not Accepted, or another tenant's return."
      )
  )
  .annotate(OpenApi.Title, "Monthly returns")
  .annotate(
    OpenApi.Description,
    "CIS300 monthly returns to the tax authority, their answers, and the payment and deduction statements of the accepted ones"
  )
  .pipe(forTenantMembers) {}
