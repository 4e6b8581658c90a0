import { Effect } from "effect"
import { Contact, notVerified, type TaxTreatment, Verification } from "../../src/contacts/Contact.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import type { User } from "../../src/users/User.js"
import { asMember } from "../TestApp.js"

/**
 * A CIS subcontractor of the tenant (a supplier too), made verified at `treatment` on
 * `verifiedAt` as the tax authority's answer would leave it, or left unverified with null.
 */
export const subcontractor = (
  owner: User,
  tenant: string,
  name: string,
  treatment: TaxTreatment | null,
  verifiedAt = new Date("2026-04-01T10:00:00Z")
) =>
  Effect.gen(function* () {
    const created = yield* (yield* Contacts)
      .create({
        name,
        isSupplier: true,
        isCisSubcontractor: true,
        cisDetails: {
          type: "SoleTrader",
          title: null,
          firstName: "Jo",
          secondName: null,
          lastName: name,
          tradingName: null,
          utr: "2234567890",
          niNumber: null,
          companyNumber: null
        }
      })
      .pipe(asMember(owner, tenant))
    if (treatment === null) return created
    const verification = new Verification({
      ...notVerified,
      status: "Verified",
      taxTreatment: treatment,
      verificationNumber: treatment === "Unmatched" ? "V1234567890/A" : "V1234567890",
      verifiedAt,
      source: "Hmrc"
    })
    const verified = new Contact({ ...created, verification })
    yield* (yield* ContactRepo).update(verified)
    return verified
  })
