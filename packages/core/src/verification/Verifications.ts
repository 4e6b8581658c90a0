import { Effect, Option } from "effect"
import { missingForType } from "../cis/CisDetails.js"
import { schemeRequired } from "../cis/SchemeRequired.js"
import { Contact } from "../contacts/Contact.js"
import { credentialsNeededVerification, credentialsRequired } from "../credentials/CredentialsRequired.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { contactEvent } from "../contacts/ContactDraft.js"
import { type FieldErrors, type Forbidden, type NotFound, Refused, type ValidationFailed } from "../Errors.js"
import { memberPath } from "../MemberPath.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { TenantSettingsRepo } from "../tenants/TenantSettingsRepo.js"
import { Transactor } from "../system/Transactor.js"
import { VerificationQueue } from "./VerificationQueue.js"
import { schemeNeededVerification, verificationRequested } from "../taxauthority/VerificationRecord.js"
import type { Tenant } from "../tenants/Tenant.js"
import type { User } from "../users/User.js"
import { failIfAny } from "../Validation.js"
import { findContact } from "../contacts/TenantContact.js"
import { Tenants } from "../tenants/Tenants.js"

/** The members the contact's CIS type still needs, as a validation problem names them ("utr or niNumber" under utr). */
const missingIdentity = (contact: Contact): FieldErrors => {
  const details = contact.cisDetails
  if (details === null) return { cisDetails: ["A CIS identity is required to verify a subcontractor"] }
  return Object.fromEntries(
    missingForType(details).map((label) => {
      const [member, ...alternatives] = label.split(" or ")
      const either = alternatives.length > 0 ? ` (or ${alternatives.join(" or ")})` : ""
      return [memberPath(["cisDetails", member ?? ""]), [`Required${either} for a ${details.type} to be verified`]]
    })
  )
}

/**
 * Verification of subcontractors with the tax authority: a request marks the contact
 * "Verification requested" and is queued in the same transaction; a worker sends it
 * (VerificationWork) and records the answer.
 */
export class Verifications extends Effect.Service<Verifications>()("core/Verifications", {
  effect: Effect.gen(function* () {
    const tenants = yield* Tenants
    const contacts = yield* ContactRepo
    const settings = yield* TenantSettingsRepo
    const credentials = yield* HmrcCredentialsRepo
    const queue = yield* VerificationQueue
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock

    /**
     * Inside the caller's transaction, for a subcontractor whose identity is complete: marks it
     * requested, records contact.updated, and queues the request with the tenant's UTR and CIS
     * scheme. Without a scheme, or without HMRC credentials to ask with, nothing can be asked:
     * the verification ends as an error saying what to set.
     */
    const start = (tenant: Tenant, contact: Contact): Effect.Effect<Contact> =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const scheme = yield* settings.getCisScheme(tenant.id)
        const details = yield* settings.getCisDetails(tenant.id)
        const hasCredentials = Option.isSome(yield* credentials.find(tenant.id))
        const verification = Option.isNone(scheme)
          ? schemeNeededVerification
          : hasCredentials
            ? verificationRequested
            : credentialsNeededVerification
        const started = new Contact({ ...contact, verification, updatedAt: now })
        yield* contacts.update(started)
        if (Option.isSome(scheme) && hasCredentials)
          yield* queue.queue({
            tenantId: tenant.id,
            contactId: contact.id,
            contactCode: contact.code,
            request: {
              contractor: { utr: Option.getOrNull(details)?.utr ?? null, scheme: scheme.value },
              subcontractor: contact.cisDetails!
            },
            requestedAt: now
          })
        yield* outbox.record(tenant.id, [contactEvent("contact.updated", started)])
        return started
      })

    /** Whether the contact can be verified: a CIS subcontractor whose identity is complete for its type. */
    const check = (contact: Contact): Effect.Effect<void, Refused | ValidationFailed> =>
      contact.isCisSubcontractor
        ? failIfAny(missingIdentity(contact))
        : Effect.fail(
            new Refused({
              detail: `${contact.code} is not a CIS subcontractor: only a CIS subcontractor can be verified.`
            })
          )

    /** Checks the tenant's contact and starts its verification, in one transaction. */
    const requestIn = (tenant: Tenant, code: string) =>
      transaction(
        Effect.gen(function* () {
          const contact = yield* findContact(contacts, tenant, code, true)
          yield* check(contact)
          if (Option.isNone(yield* settings.getCisScheme(tenant.id))) return yield* schemeRequired
          if (Option.isNone(yield* credentials.find(tenant.id))) return yield* credentialsRequired
          return yield* start(tenant, contact)
        })
      )

    const request = (
      user: User,
      tenantCode: string,
      code: string
    ): Effect.Effect<Contact, Forbidden | NotFound | Refused | ValidationFailed> =>
      tenants.access(user, tenantCode).pipe(
        Effect.flatMap(({ tenant }) => requestIn(tenant, code)),
        Effect.withSpan("Verifications.request")
      )

    /** For support staff (the admin CLI): the same request, for any tenant. */
    const requestForSupport = (
      tenantCode: string,
      code: string
    ): Effect.Effect<Contact, NotFound | Refused | ValidationFailed> =>
      tenants.forSupport(tenantCode).pipe(
        Effect.flatMap((tenant) => requestIn(tenant, code)),
        Effect.withSpan("Verifications.requestForSupport")
      )

    return { request, requestForSupport, start, check } as const
  })
}) {}
