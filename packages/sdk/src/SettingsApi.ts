import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Authenticate } from "./Authenticate.js"
import { ForbiddenProblem, NotFoundProblem, ValidationProblem } from "./Problem.js"
import { TenantCisDetailsDto, UpdateTenantCisDetailsRequest } from "./SettingsDtos.js"
import { tenantParam } from "./TenantsApi.js"

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
        "Answers with the details as stored: names trimmed, the UTR as 10 digits, the NI number and company number upper case without spaces. An invalid utr, niNumber or companyNumber is 400, naming each."
      )
  )
  .middleware(Authenticate)
  .annotate(OpenApi.Title, "Settings")
  .annotate(OpenApi.Description, "A tenant's settings: its CIS details.") {}
