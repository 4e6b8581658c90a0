import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Authenticate } from "./Authenticate.js"
import { ConflictProblem, ForbiddenProblem, NotFoundProblem, ValidationProblem } from "./Problem.js"
import { AddMemberRequest, CreateTenantRequest, MemberDto, TenantDto } from "./TenantDtos.js"

export const tenantParam = HttpApiSchema.param("tenant", Schema.String)

export class TenantsApi extends HttpApiGroup.make("tenants")
  .add(
    HttpApiEndpoint.post("createTenant", "/tenants")
      .setPayload(CreateTenantRequest)
      .addSuccess(TenantDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "Create a tenant; the caller becomes its Owner")
  )
  .add(
    HttpApiEndpoint.get("getTenant")`/tenants/${tenantParam}`
      .addSuccess(TenantDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
  )
  .add(
    HttpApiEndpoint.get("listMembers")`/tenants/${tenantParam}/members`
      .addSuccess(Schema.Array(MemberDto))
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
  )
  .add(
    HttpApiEndpoint.post("addMember")`/tenants/${tenantParam}/members`
      .setPayload(AddMemberRequest)
      .addSuccess(MemberDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "Add a member (Owner only); an unknown email is invited and linked on first sign-in")
  )
  .middleware(Authenticate)
  .annotate(OpenApi.Title, "Tenants") {}
