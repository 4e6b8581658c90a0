import { Schema } from "effect"
import { PlainCisDetails } from "../cis/CisDetailsFormat.js"
import {
  ConnectionDirection,
  ConnectionSide,
  ConnectionStatus,
  type Connection,
  type ConnectionViewer,
  sideOf
} from "./Connection.js"

const fields = {
  id: Schema.String.annotations({ description: "A lower-case UUID" }),
  direction: ConnectionDirection.annotations({
    description:
      "As the initiator set it; both sides see the same. Out: the initiator (a subcontractor) shares its CIS details with a contractor. In: the initiator (a contractor) invites a subcontractor."
  }),
  status: ConnectionStatus,
  side: ConnectionSide.annotations({ description: "The calling tenant's side" }),
  contact: Schema.NullOr(Schema.String).annotations({
    description: "The code of the calling tenant's contact on its side; null for a receiver that has not accepted"
  }),
  email: Schema.String.annotations({ description: "The address the invitation was sent to" }),
  counterparty: Schema.Struct({ tenant: Schema.NullOr(Schema.String), name: Schema.NullOr(Schema.String) }).annotations(
    {
      description:
        "The other tenant (code and display name); both null while no tenant has accepted, as the initiator sees it"
    }
  ),
  sharedDetails: Schema.Struct({
    name: Schema.String,
    email: Schema.NullOr(Schema.String),
    cisDetails: Schema.NullOr(PlainCisDetails)
  }).annotations({
    description: "What the initiator shared: its name, email, and for Out its CIS details as they were when sent"
  }),
  nextStep: Schema.NullOr(Schema.String).annotations({
    description: "What happens next, for the calling tenant, in plain words; null once Connected"
  }),
  createdAt: Schema.Date,
  connectedAt: Schema.NullOr(Schema.Date),
  rejectedAt: Schema.NullOr(Schema.Date)
}

const example: Schema.Struct.Type<typeof fields> = {
  id: "6f1c2b9e-3d4a-4c5b-8e7f-0a1b2c3d4e5f",
  direction: "Out",
  status: "Pending",
  side: "Initiator",
  contact: "LOVELACE",
  email: "accounts@lovelace-builders.example",
  counterparty: { tenant: null, name: null },
  sharedDetails: {
    name: "Smith Groundworks",
    email: "john@smith-groundworks.example",
    cisDetails: {
      type: "SoleTrader",
      title: "Mr",
      firstName: "John",
      secondName: null,
      lastName: "Smith",
      tradingName: "Smith Groundworks",
      utr: "2234567890",
      niNumber: "AB123456C",
      companyNumber: null
    }
  },
  nextStep: "We emailed accounts@lovelace-builders.example. When they accept, you are connected.",
  createdAt: new Date("2026-11-21T10:15:00.000Z"),
  connectedAt: null,
  rejectedAt: null
}

/**
 * The `data` of a connection.connected event, the connection as one of its tenants sees it,
 * written with the change in its transaction; the API answers the same shape (the sdk's
 * ConnectionDto).
 */
export const ConnectionEventData = Schema.Struct(fields).annotations({
  identifier: "ConnectionDto",
  examples: [example]
})
export type ConnectionEventData = typeof ConnectionEventData.Type

/** What happens next, for the viewer, in plain words (the wire's `nextStep`); null once Connected. */
const whatHappensNext = (connection: Connection, side: "Initiator" | "Receiver" | "SentTo"): string | null => {
  if (connection.status === "Connected") return null
  if (connection.status === "Rejected") {
    return "They declined. Delete this connection to send a new invitation."
  }
  if (side === "Initiator") return `We emailed ${connection.email}. When they accept, you are connected.`
  const what =
    connection.direction === "Out"
      ? `${connection.shared.name} would like to share their CIS details with you.`
      : `${connection.shared.name} would like to add you as a subcontractor.`
  return `${what} Accept with PUT .../counterparty (optionally naming your contact for them), or reject by deleting it.`
}

/** The connection as the viewer sees it; the viewer must be able to see it (see sideOf). */
export const connectionEventData = (connection: Connection, viewer: ConnectionViewer): ConnectionEventData => {
  const seen = sideOf(connection, viewer) ?? "SentTo"
  const side = seen === "Initiator" ? "Initiator" : "Receiver"
  const mine = side === "Initiator" ? connection.initiator : connection.receiver
  const other = side === "Initiator" ? connection.receiver : connection.initiator
  return {
    id: connection.id,
    direction: connection.direction,
    status: connection.status,
    side,
    contact: mine?.contactCode ?? null,
    email: connection.email,
    counterparty: { tenant: other?.tenantCode ?? null, name: other?.tenantName ?? null },
    sharedDetails: {
      name: connection.shared.name,
      email: connection.shared.email,
      cisDetails: connection.shared.cisDetails ? { ...connection.shared.cisDetails } : null
    },
    nextStep: whatHappensNext(connection, seen),
    createdAt: connection.createdAt,
    connectedAt: connection.connectedAt,
    rejectedAt: connection.rejectedAt
  }
}

/** The JSON of a connection as the viewer sees it, as webhook receivers get it. */
export const connectionEventJson = (connection: Connection, viewer: ConnectionViewer) =>
  Schema.encodeSync(ConnectionEventData)(connectionEventData(connection, viewer))
