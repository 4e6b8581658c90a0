import { Effect, Equal, Option } from "effect"
import { missingForType } from "../cis/CisDetails.js"
import { schemeRequired } from "../cis/SchemeRequired.js"
import { Contact } from "../contacts/Contact.js"
import { credentialsNeededVerification, credentialsRequired } from "../credentials/CredentialsRequired.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { contactEvent } from "../contacts/ContactDraft.js"
import { type FieldErrors, type NotFound, Refused, ValidationFailed } from "../Errors.js"
import { memberPath } from "../MemberPath.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { TenantSettingsRepo } from "../tenants/TenantSettingsRepo.js"
import { Transactor } from "../system/Transactor.js"
import { VerificationQueue } from "./VerificationQueue.js"
import {
  schemeNeededVerification,
  unsendableVerification,
  UTR_NEEDED_MESSAGE,
  verificationRequested
} from "../taxauthority/VerificationRecord.js"
import { FilingCheck } from "../taxauthority/FilingCheck.js"
import { filingProblemText, verificationFilingErrors } from "../taxauthority/FilingProblems.js"
import type { VerificationRequest } from "../taxauthority/Verification.js"
import type { Tenant } from "../tenants/Tenant.js"
import { failIfAny } from "../Validation.js"
import { findContact } from "../contacts/TenantContact.js"

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
    const contacts = yield* ContactRepo
    const settings = yield* TenantSettingsRepo
    const credentials = yield* HmrcCredentialsRepo
    const queue = yield* VerificationQueue
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const filing = yield* FilingCheck

    /**
     * The request HMRC would be sent, or the verification it ends as when it cannot be sent: without
     * the tenant's CIS scheme, its own UTR, or HMRC credentials to ask with.
     */
    const requestFor = (tenant: Tenant, contact: Contact) =>
      Effect.gen(function* () {
        const scheme = yield* settings.getCisScheme(tenant.id)
        const utr = Option.getOrNull(yield* settings.getCisDetails(tenant.id))?.utr ?? null
        if (Option.isNone(scheme)) return { _tag: "Unsendable", verification: schemeNeededVerification } as const
        if (utr === null)
          return { _tag: "Unsendable", verification: unsendableVerification(UTR_NEEDED_MESSAGE) } as const
        if (Option.isNone(yield* credentials.find(tenant.id)))
          return { _tag: "Unsendable", verification: credentialsNeededVerification } as const
        const request: VerificationRequest = {
          contractor: { utr, scheme: scheme.value },
          subcontractor: contact.cisDetails!
        }
        return { _tag: "Request", request } as const
      })

    const begin = (tenant: Tenant, contact: Contact, checked: boolean): Effect.Effect<Contact> =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const request = yield* requestFor(tenant, contact)
        const problems = request._tag === "Request" && !checked ? yield* filing.checkVerification(request.request) : []
        const verification =
          request._tag === "Unsendable"
            ? request.verification
            : problems.length > 0
              ? unsendableVerification(filingProblemText(problems))
              : verificationRequested
        const started = new Contact({ ...contact, verification, updatedAt: now })
        yield* contacts.update(started)
        if (request._tag === "Request" && problems.length === 0)
          yield* queue.queue({
            tenantId: tenant.id,
            contactId: contact.id,
            contactCode: contact.code,
            request: request.request,
            requestedAt: now
          })
        yield* outbox.record(tenant.id, [contactEvent("contact.updated", started)])
        return started
      })

    /**
     * Inside the caller's transaction, for a subcontractor whose identity is complete: marks it
     * requested, records contact.updated, and queues the request with the tenant's UTR and CIS
     * scheme, once HMRC's schema takes it. Without a scheme or the contractor's UTR, or with a
     * request HMRC's schema refuses, nothing can be asked: the verification ends as an error
     * saying what to do.
     */
    const start = (tenant: Tenant, contact: Contact): Effect.Effect<Contact> => begin(tenant, contact, false)

    /** Whether the contact can be verified: a CIS subcontractor whose identity is complete for its type. */
    const check = (contact: Contact): Effect.Effect<void, Refused | ValidationFailed> =>
      contact.isCisSubcontractor
        ? failIfAny(missingIdentity(contact))
        : Effect.fail(
            new Refused({
              detail: `${contact.code} is not a CIS subcontractor: only a CIS subcontractor can be verified.`
            })
          )

    /**
     * Checks the tenant's contact, the contractor's scheme and UTR, its HMRC credentials, and the request against HMRC's
     * schema (outside the transaction: no connection is held while it is validated), then starts
     * the verification in one transaction.
     */
    const requestIn = (tenant: Tenant, code: string) =>
      Effect.gen(function* () {
        const contact = yield* findContact(contacts, tenant, code, true)
        yield* check(contact)
        const request = yield* requestFor(tenant, contact)
        if (request._tag === "Unsendable")
          return yield* request.verification === schemeNeededVerification
            ? schemeRequired
            : request.verification === credentialsNeededVerification
              ? credentialsRequired
              : ValidationFailed.one("utr", UTR_NEEDED_MESSAGE)
        yield* failIfAny(verificationFilingErrors(yield* filing.checkVerification(request.request)))
        return yield* transaction(
          Effect.gen(function* () {
            const current = yield* findContact(contacts, tenant, code, true)
            yield* check(current)
            // Checked above, unless the identity changed meanwhile.
            return yield* begin(tenant, current, Equal.equals(current.cisDetails, contact.cisDetails))
          })
        )
      })

    const request = (code: string): Effect.Effect<Contact, NotFound | Refused | ValidationFailed, CurrentTenant> =>
      CurrentTenant.pipe(
        Effect.flatMap(({ tenant }) => requestIn(tenant, code)),
        Effect.withSpan("Verifications.request")
      )

    return { request, start, check } as const
  })
}) {}
