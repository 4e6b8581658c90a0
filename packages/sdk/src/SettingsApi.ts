import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ForbiddenProblem, NotFoundProblem, ValidationProblem } from "./Problem.js"
import {
  CisSchemeDto,
  HmrcCredentialsDto,
  TenantCisDetailsDto,
  UpdateCisSchemeRequest,
  UpdateHmrcCredentialsRequest,
  UpdateTenantCisDetailsRequest
} from "./SettingsDtos.js"
import { tenantParam } from "./TenantsApi.js"
import { forTenantMembers } from "./Access.js"

export class SettingsApi extends HttpApiGroup.make("settings")
  .add(
    HttpApiEndpoint.get("getCisDetails")`/tenants/${tenantParam}/settings/cis-details`
      .addSuccess(TenantCisDetailsDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The tenant's CIS details; every member null until they are set")
      .annotate(
        OpenApi.Description,
        "The tenant's own CIS identity as a contractor: UTR, NI number, company number and names."
      )
  )
  .add(
    HttpApiEndpoint.put("updateCisDetails")`/tenants/${tenantParam}/settings/cis-details`
      .setPayload(UpdateTenantCisDetailsRequest)
      .addSuccess(TenantCisDetailsDto)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Replace the tenant's CIS details")
      .annotate(
        OpenApi.Description,
        "Answers with the details as stored: names trimmed, the UTR and partnerUtr as 10 digits, the NI number and company number upper case without spaces. An invalid utr, partnerUtr, niNumber or companyNumber is 400, naming each, and so is a name HMRC's forms cannot take (with HMRC's rule)."
      )
  )
  .add(
    HttpApiEndpoint.get("getCisScheme")`/tenants/${tenantParam}/settings/cis-scheme`
      .addSuccess(CisSchemeDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The tenant's CIS scheme registration; every member null until it is set")
      .annotate(
        OpenApi.Description,
        "The PAYE scheme the tenant files its CIS300 returns and verifies subcontractors under: the employer PAYE reference and the Accounts Office reference, and registeredFrom, the date its CIS registration with HMRC began (returns are due from its tax month on: see the obligations). Returns and verifications are refused (400 naming employerReference and accountsOfficeReference) until it is set."
      )
  )
  .add(
    HttpApiEndpoint.put("updateCisScheme")`/tenants/${tenantParam}/settings/cis-scheme`
      .setPayload(UpdateCisSchemeRequest)
      .addSuccess(CisSchemeDto)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Set the tenant's CIS scheme registration")
      .annotate(
        OpenApi.Description,
        "Answers with the references as stored: upper case, spaces removed. employerReference is the 3-digit tax office number, a slash and 1–10 letters and digits (123/AB45678); accountsOfficeReference the 13-character Accounts Office reference whose 5th character is HMRC's modulus-23 check letter (123PW12345678). registeredFrom (optional) is the date the contractor's CIS registration with HMRC began; left out, it is the date the registration was first set here, and a later PUT without it keeps the recorded one. Anything else is 400 naming the member; nothing is changed."
      )
  )
  .add(
    HttpApiEndpoint.get("getHmrcCredentials")`/tenants/${tenantParam}/settings/hmrc-credentials`
      .addSuccess(Schema.NullOr(HmrcCredentialsDto))
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The tenant's HMRC credentials, without the password; null until set")
      .annotate(
        OpenApi.Description,
        "The Government Gateway user id the tenant's returns and verifications are sent to HMRC with, who files (Contractor or Agent), and what HMRC made of them. The password is never answered. Owner only: 403 for a Member."
      )
  )
  .add(
    HttpApiEndpoint.put("updateHmrcCredentials")`/tenants/${tenantParam}/settings/hmrc-credentials`
      .setPayload(UpdateHmrcCredentialsRequest)
      .addSuccess(HmrcCredentialsDto)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Set or replace the tenant's HMRC credentials")
      .annotate(
        OpenApi.Description,
        "Stores the Government Gateway credentials (the password encrypted) as Unchecked, and in the same transaction sends again every Held return and waiting verification of the tenant (held because HMRC refused the credentials before). Until they are set, POST .../monthly-returns and POST .../verification answer 400 naming hmrcCredentials. A blank gatewayUserId or password is 400 naming it; nothing is changed. Owner only: 403 for a Member."
      )
  )
  .add(
    HttpApiEndpoint.del("deleteHmrcCredentials")`/tenants/${tenantParam}/settings/hmrc-credentials`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Remove the tenant's HMRC credentials")
      .annotate(
        OpenApi.Description,
        "Nothing more of the tenant is sent to HMRC until credentials are set again: a return waiting to be sent is Held. 204 whether or not any were set. Owner only: 403 for a Member."
      )
  )
  .annotate(OpenApi.Title, "Settings")
  .annotate(
    OpenApi.Description,
    "A tenant's settings: its CIS details, its CIS scheme registration and its HMRC (Government Gateway) credentials."
  )
  .pipe(forTenantMembers) {}
