import type { Contact } from "../contacts/Contact.js"
import { taxMonthEndOf, verifyAgainSince } from "./TaxMonth.js"

// HMRC wants a subcontractor verified again before it goes on the return ending `periodEnd` when
// it was last verified before the tax year two before this one and is on none of the contractor's
// accepted returns since then. The draft asks the returns only about the contacts verified too long ago.

/** Whether the contact was last verified (or never) before the cutoff of the return ending `periodEnd`. */
export const verifiedTooLongAgo = (contact: Contact, periodEnd: string): boolean => {
  const verifiedAt = contact.verification?.verifiedAt ?? null
  return verifiedAt === null || verifiedAt.toISOString().slice(0, 10) < verifyAgainSince(periodEnd)
}

/** The first tax month (its 5th) whose accepted return still vouches for a contact on the return ending `periodEnd`. */
export const acceptedReturnsFrom = (periodEnd: string): string => taxMonthEndOf(verifyAgainSince(periodEnd))
