import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  ConnectionDto,
  ConnectionListParams,
  CreateConnectionRequest,
  SetConnectionCounterpartyRequest
} from "./ConnectionDtos.js"
import { ConflictProblem, ForbiddenProblem, NotFoundProblem, RefusedProblem, ValidationProblem } from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"
import { forTenantMembers } from "./Access.js"

const connectionParam = HttpApiSchema.param("connection", Schema.String)

const visibility =
  "A connection is visible to its initiating tenant, the tenant that accepted it, and while Pending every tenant it was sent to (whose own email, or the calling user's, equals its email, case-insensitively); to anyone else it is 404."

export class ConnectionsApi extends HttpApiGroup.make("connections")
  .add(
    HttpApiEndpoint.get("listConnections")`/tenants/${tenantParam}/connections`
      .setUrlParams(ConnectionListParams)
      .addSuccess(Schema.Array(ConnectionDto))
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "A contact's connections, or the invitations waiting for the tenant")
      .annotate(
        OpenApi.Description,
        "With contact: the connections in which that contact is the tenant's side, at most one per direction ([] for an unknown code). Without: the Pending connections sent to the tenant (matched by the caller's email or the tenant's) that it has neither accepted nor rejected, newest first. direction narrows either list; an invalid direction is 400."
      )
  )
  .add(
    HttpApiEndpoint.post("createConnection")`/tenants/${tenantParam}/connections`
      .setPayload(CreateConnectionRequest)
      .addSuccess(ConnectionDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(RefusedProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .addError(ConflictProblem)
      .annotate(
        OpenApi.Summary,
        "Invite a subcontractor (In), or share the tenant's CIS details with a contractor (Out)"
      )
      .annotate(
        OpenApi.Description,
        "Emails the invitation to email with the tenant's ConnectionInvitation template and signature, and answers the Pending connection as its initiator sees it, with nextStep. 404 for an unknown contact; 400 when the contact has the wrong role (Out: a customer, In: a CIS subcontractor), or for Out when the tenant's own CIS details are not complete for their type; 409 when the contact already has a connection in that direction (Pending, Connected or Rejected: delete a rejected one to send again). A unique constraint decides racing creates: exactly one is 201."
      )
  )
  .add(
    HttpApiEndpoint.get("getConnection")`/tenants/${tenantParam}/connections/${connectionParam}`
      .addSuccess(ConnectionDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One connection, as the calling tenant sees it")
      .annotate(OpenApi.Description, visibility)
  )
  .add(
    HttpApiEndpoint.del("deleteConnection")`/tenants/${tenantParam}/connections/${connectionParam}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Reject an invitation, or remove a connection")
      .annotate(
        OpenApi.Description,
        `A tenant a Pending connection was sent to rejects it: it leaves that tenant's lists, and the initiator's record stays, Rejected with rejectedAt. In every other case (the initiator withdrawing or removing it, either side of a Connected one) the connection is removed for both; the contacts stay. ${visibility}`
      )
  )
  .add(
    HttpApiEndpoint.put(
      "setConnectionCounterparty"
    )`/tenants/${tenantParam}/connections/${connectionParam}/counterparty`
      .setPayload(SetConnectionCounterpartyRequest)
      .addSuccess(ConnectionDto)
      .addError(ValidationProblem)
      .addError(RefusedProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Accept a connection sent to the tenant")
      .annotate(
        OpenApi.Description,
        "The receiving tenant's side is the contact given (404 when unknown; 400 with the wrong role: for Out a CIS subcontractor, for In a customer; 400 when it already has a connection in that direction), or without one a contact created from the shared details (Out: a supplier and CIS subcontractor holding the shared CIS identity, whose verification with the tax authority starts at once; In: a customer), with its contact.created (and subcontractor.created) events. Only a Pending connection sent to the tenant: the initiator calling it, or a connection no longer Pending, is 400. Answers the connection as the receiver now sees it (Connected); connection.connected goes to both tenants."
      )
  )
  .annotate(OpenApi.Title, "Connections")
  .annotate(
    OpenApi.Description,
    "Connections between tenants: a subcontractor shares its CIS details with a contractor (Out), or a contractor invites a subcontractor (In); the tenant invited by email accepts or rejects"
  )
  .pipe(forTenantMembers) {}
