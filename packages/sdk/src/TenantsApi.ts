import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { forTenantMembers, forUsers } from "./Access.js"
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
      .annotate(
        OpenApi.Description,
        "The code is 3 to 40 characters of a-z, 0-9 and -, starting with a letter, and unique (409 when taken)."
      )
      .pipe(forUsers)
  )
  .add(
    HttpApiEndpoint.get("getTenant")`/tenants/${tenantParam}`
      .addSuccess(TenantDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One tenant, by its code")
      .annotate(
        OpenApi.Description,
        "403 for a caller who is not a member of the tenant, 404 for a tenant that does not exist."
      )
      .pipe(forTenantMembers)
  )
  .add(
    HttpApiEndpoint.get("listMembers")`/tenants/${tenantParam}/members`
      .addSuccess(Schema.Array(MemberDto))
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The tenant's members and their roles")
      .annotate(
        OpenApi.Description,
        "Every member with their role and the time they were added; invited users who have not signed in yet included."
      )
      .pipe(forTenantMembers)
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
      .annotate(OpenApi.Description, "Only an Owner may add members (403 otherwise); a user already a member is 409.")
      .pipe(forTenantMembers)
  )
  .annotate(OpenApi.Title, "Tenants")
  .annotate(OpenApi.Description, "Tenants (organisations) and their members.") {}
