import { Schema } from "effect"
import { CisDetails } from "../cis/CisDetails.js"
import { Email } from "../Email.js"
import { ConnectionId, ContactId, TenantId } from "../Ids.js"
import { TenantCode } from "../tenants/Tenant.js"

/** Out: the initiator, a subcontractor, shares its CIS details with a contractor. In: the initiator, a contractor, invites a subcontractor. */
export const ConnectionDirection = Schema.Literal("In", "Out").annotations({
  message: () => ({ message: "Must be In or Out", override: true })
})
export type ConnectionDirection = typeof ConnectionDirection.Type

export const ConnectionStatus = Schema.Literal("Pending", "Connected", "Rejected")
export type ConnectionStatus = typeof ConnectionStatus.Type

export const ConnectionSide = Schema.Literal("Initiator", "Receiver")
export type ConnectionSide = typeof ConnectionSide.Type

/** One tenant's side of a connection: the tenant and its contact that stands for the other party. */
export class ConnectionParty extends Schema.Class<ConnectionParty>("ConnectionParty")({
  tenantId: TenantId,
  tenantCode: TenantCode,
  tenantName: Schema.String,
  contactId: ContactId,
  contactCode: Schema.String
}) {}

/** What the initiator shared when it sent the invitation. */
export class SharedDetails extends Schema.Class<SharedDetails>("SharedDetails")({
  name: Schema.String,
  email: Schema.NullOr(Email),
  /** The initiator's CIS details as they were when sent; only for Out. */
  cisDetails: Schema.NullOr(CisDetails)
}) {}

export class Connection extends Schema.Class<Connection>("Connection")({
  id: ConnectionId,
  direction: ConnectionDirection,
  status: ConnectionStatus,
  initiator: ConnectionParty,
  /** The tenant that accepted, and its contact; null until then. */
  receiver: Schema.NullOr(ConnectionParty),
  /** The address the invitation was sent to. */
  email: Email,
  shared: SharedDetails,
  createdAt: Schema.DateFromSelf,
  connectedAt: Schema.NullOr(Schema.DateFromSelf),
  rejectedAt: Schema.NullOr(Schema.DateFromSelf)
}) {}

/** Who is looking: a tenant, and the addresses that count as its own (the tenant's, the calling user's). */
export interface ConnectionViewer {
  readonly tenantId: TenantId
  readonly emails: ReadonlyArray<Email>
}

/** The viewer's side, or "SentTo" for a Pending connection sent to it; undefined when it may not see it. */
export const sideOf = (connection: Connection, viewer: ConnectionViewer): ConnectionSide | "SentTo" | undefined => {
  if (connection.initiator.tenantId === viewer.tenantId) return "Initiator"
  if (connection.receiver?.tenantId === viewer.tenantId) return "Receiver"
  if (
    connection.status === "Pending" &&
    viewer.emails.some((e) => e.toLowerCase() === connection.email.toLowerCase())
  ) {
    return "SentTo"
  }
  return undefined
}

/** A Connected connection's two tenants as the contractor and the subcontractor. */
export interface ContractorAndSubcontractor {
  readonly contractor: ConnectionParty
  readonly subcontractor: ConnectionParty
}

/**
 * Which side of a Connected connection is the contractor: the initiator of an In connection (it
 * invited its subcontractor), the receiver of an Out one (the subcontractor shared its details
 * with it). Undefined while it is not Connected.
 */
export const contractorAndSubcontractor = (connection: Connection): ContractorAndSubcontractor | undefined => {
  if (connection.status !== "Connected" || connection.receiver === null) return undefined
  return connection.direction === "In"
    ? { contractor: connection.initiator, subcontractor: connection.receiver }
    : { contractor: connection.receiver, subcontractor: connection.initiator }
}
