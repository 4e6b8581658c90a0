import type { Contact } from "../contacts/Contact.js"
import { ValidationFailed } from "../Errors.js"
import type { ConnectionDirection, ConnectionSide } from "./Connection.js"

/**
 * The role a side's contact must hold: it stands for the other party. Out: the initiator (a
 * subcontractor) names its customer, the receiver (a contractor) its CIS subcontractor. In: the
 * initiator (a contractor) names its CIS subcontractor, the receiver (a subcontractor) its customer.
 */
export const roleCheck = (
  contact: Contact,
  direction: ConnectionDirection,
  side: ConnectionSide
): ValidationFailed | undefined => {
  const needsSubcontractor = (direction === "In") === (side === "Initiator")
  if (needsSubcontractor ? contact.isCisSubcontractor : contact.isCustomer) return undefined
  const role = needsSubcontractor ? "a CIS subcontractor" : "a customer"
  const why = needsSubcontractor ? "it stands for the subcontractor" : "it stands for the contractor you invoice"
  return ValidationFailed.one("contact", `${contact.code} is not ${role}, and ${why} in this ${direction} connection.`)
}

/** The sentence of the invitation mail that says what the inviter wants. */
export const invitationPurpose = (tenantName: string, direction: ConnectionDirection) =>
  direction === "Out"
    ? `${tenantName} would like to share their CIS details with you.`
    : `${tenantName} would like to add you as a CIS subcontractor.`
