import { ConnectionDirection } from "@cisbook/core/connections/Connection"
import { ConnectionEventData as ConnectionDto } from "@cisbook/core/connections/ConnectionEventData"
import { EmailAddress } from "@cisbook/core/Email"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

// A connection as the API shows it is the `data` of its event, which core writes with the change.
export { ConnectionDto }

const ContactCode = Schema.Trim.pipe(Schema.minLength(1, { message: () => "A contact code is required" }))

export const CreateConnectionRequest = requestBody("CreateConnectionRequest", {
  contact: ContactCode.annotations({
    description:
      "The code of the calling tenant's contact for the other party: for Out a customer (the contractor the tenant invoices), for In a CIS subcontractor"
  }),
  direction: ConnectionDirection.annotations({
    description: "Out: share the tenant's CIS details with a contractor. In: invite a subcontractor."
  }),
  email: EmailAddress.annotations({ description: "Where the invitation is sent" })
}).annotations({
  identifier: "CreateConnectionRequest",
  examples: [{ contact: "LOVELACE", direction: "Out", email: "accounts@lovelace-builders.example" }]
})

// The wire keeps the contract's spelling of the schema, SetConnectionCounterPartyRequest.
export const SetConnectionCounterpartyRequest = requestBody("SetConnectionCounterPartyRequest", {
  contact: optional(
    ContactCode.annotations({
      description:
        "The accepting tenant's contact for the initiator: for Out a CIS subcontractor, for In a customer. Omitted: a contact is created from the shared details."
    })
  )
}).annotations({
  identifier: "SetConnectionCounterPartyRequest",
  examples: [{ contact: "SMITHGRO" }, {}]
})

export const ConnectionListParams = Schema.Struct({
  contact: Schema.optional(
    Schema.String.annotations({
      description:
        "A contact code of the calling tenant: the connections in which it is the tenant's side (at most one per direction); an unknown code gives []"
    })
  ),
  direction: Schema.optional(ConnectionDirection.annotations({ description: "Only connections in this direction" }))
})
