import { Effect, Option } from "effect"
import type { Contact } from "./Contact.js"
import { isContactCodeShape, normaliseContactCode } from "./ContactCode.js"
import { NotFound } from "../Errors.js"
import type { ContactRepo } from "./ContactRepo.js"
import type { Tenant } from "../tenants/Tenant.js"

/**
 * The tenant's contact with the code as it came in a request, in any case. `forUpdate`, inside
 * a transaction: locked until it ends.
 */
export const lookUpContact = (
  repo: ContactRepo["Type"],
  tenant: Tenant,
  code: string,
  forUpdate = false
): Effect.Effect<Option.Option<Contact>> => {
  const normalised = normaliseContactCode(code)
  if (!isContactCodeShape(normalised)) return Effect.succeed(Option.none())
  return (forUpdate ? repo.findByCodeForUpdate : repo.findByCode)(tenant.id, normalised)
}

/** What a request naming a contact the tenant has not is told. */
export const noSuchContact = (tenant: Tenant, code: string) =>
  `There is no contact with the code ${code} in ${tenant.code}.`

export const contactNotFound = (tenant: Tenant, code: string) => new NotFound({ detail: noSuchContact(tenant, code) })

/** {@link lookUpContact}, failing with NotFound when there is none. */
export const findContact = (
  repo: ContactRepo["Type"],
  tenant: Tenant,
  code: string,
  forUpdate = false
): Effect.Effect<Contact, NotFound> =>
  Effect.flatMap(
    lookUpContact(repo, tenant, code, forUpdate),
    Option.match({ onNone: () => Effect.fail(contactNotFound(tenant, code)), onSome: Effect.succeed })
  )
