import { Effect } from "effect"
import { blankAsNull } from "../BlankAsNull.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { Contact, notVerified } from "./Contact.js"
import { contactCodeBase, generateContactCode } from "./ContactCode.js"
import {
  type ContactDraftInput,
  contactEvent as event,
  creationEvents,
  draftContact,
  toCisDetails,
  toEmail,
  toSupplierSettings
} from "./ContactDraft.js"
import type { ContactReplacement, NewContact } from "./ContactInput.js"
import { type ContactListRequest, contactQuery } from "./ContactQuery.js"
import { Conflict, type NotFound, type ValidationFailed } from "../Errors.js"
import { ContactId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { ContactActivity } from "./ContactActivity.js"
import { ContactRepo } from "./ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { Transactor } from "../system/Transactor.js"
import type { Tenant } from "../tenants/Tenant.js"
import { failIfAny } from "../Validation.js"
import { findContact } from "./TenantContact.js"

export interface ContactListPage {
  readonly items: ReadonlyArray<Contact>
  readonly totalCount: number
  readonly offset: number
  /** The page size served: at most the maximum, whatever was asked. */
  readonly limit: number
}

/**
 * On a store that cannot lock the codes, racing creates of one name pick the same code; each
 * loser reads the issued codes again and picks anew. A loser only loses once the winner has
 * committed, so every round issues a code and this has to outlast only the number of racers.
 */
const CODE_ATTEMPTS = 100

const subcontractorMustSupply = (roles: { readonly isSupplier: boolean; readonly isCisSubcontractor: boolean }) =>
  roles.isCisSubcontractor && !roles.isSupplier
    ? { isSupplier: ["A CIS subcontractor is always also a supplier: set isSupplier to true"] }
    : {}

export class Contacts extends Effect.Service<Contacts>()("core/Contacts", {
  effect: Effect.gen(function* () {
    const repo = yield* ContactRepo
    const activity = yield* ContactActivity
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator

    const find = (tenant: Tenant, code: string, forUpdate = false): Effect.Effect<Contact, NotFound> =>
      findContact(repo, tenant, code, forUpdate)

    /**
     * Inside a transaction: inserts the contact under a code generated from its name while the
     * tenant's codes are locked; a code taken meanwhile (by a store that cannot lock) is generated again.
     */
    const insertWithNewCode = (contact: Contact) =>
      repo.lockCodes(contact.tenantId).pipe(
        Effect.zipRight(repo.issuedCodes(contact.tenantId, contactCodeBase(contact.name))),
        Effect.map(
          (issued) => new Contact({ ...contact, code: generateContactCode(contact.name, (code) => issued.has(code)) })
        ),
        Effect.tap((coded) => repo.insert(coded)),
        Effect.retry({ times: CODE_ATTEMPTS - 1 }),
        Effect.orDie
      )

    /**
     * Inside the caller's transaction: a contact of the tenant from input already checked, under
     * a new code, with its creation events.
     */
    const createIn = (tenant: Tenant, input: ContactDraftInput): Effect.Effect<Contact> =>
      Effect.gen(function* () {
        const draft = draftContact(input, {
          id: ContactId.make(yield* ids.uuid),
          tenantId: tenant.id,
          now: yield* clock.now
        })
        const contact = yield* insertWithNewCode(draft)
        yield* outbox.record(tenant.id, creationEvents(contact))
        return contact
      })

    const list = (
      request: ContactListRequest
    ): Effect.Effect<ContactListPage, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const query = yield* contactQuery(request)
        const page = yield* repo.list(tenant.id, query)
        return { ...page, offset: query.offset, limit: query.limit }
      }) // No span on this hot read: a span costs ~20 µs of CPU a call even with tracing off.

    const get = (code: string): Effect.Effect<Contact, NotFound, CurrentTenant> =>
      CurrentTenant.pipe(Effect.flatMap(({ tenant }) => find(tenant, code)))

    const create = (input: NewContact): Effect.Effect<Contact, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        yield* failIfAny(
          subcontractorMustSupply({
            isSupplier: input.isSupplier ?? false,
            isCisSubcontractor: input.isCisSubcontractor ?? false
          })
        )
        return yield* transaction(createIn(tenant, input))
      }).pipe(Effect.withSpan("Contacts.create"))

    /** The roles the contact gives up that its invoices still need. */
    const rolesInUse = (contact: Contact, input: ContactReplacement) =>
      Effect.all([
        contact.isCustomer && !input.isCustomer
          ? Effect.map(activity.hasSalesInvoices(contact.tenantId, contact.id), (has) =>
              has ? ["it has sales invoices, so it stays a customer"] : []
            )
          : Effect.succeed([]),
        contact.isSupplier && !input.isSupplier
          ? Effect.map(activity.hasPurchaseInvoices(contact.tenantId, contact.id), (has) =>
              has ? ["it has purchase invoices, so it stays a supplier"] : []
            )
          : Effect.succeed([])
      ]).pipe(Effect.map((reasons) => reasons.flat()))

    /**
     * Replaces every editable member. Without the subcontractor role the CIS identity and the
     * verification stay on record; with the role back, the verification returns as it was.
     */
    const update = (
      code: string,
      input: ContactReplacement
    ): Effect.Effect<Contact, NotFound | ValidationFailed | Conflict, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const existing = yield* find(tenant, code)
        yield* failIfAny({
          ...subcontractorMustSupply(input),
          ...(input.isCisSubcontractor && !input.cisDetails
            ? { cisDetails: ["Required when isCisSubcontractor is true"] }
            : {}),
          ...(input.isSupplier && !input.supplierSettings
            ? { supplierSettings: ["Required when isSupplier is true"] }
            : {})
        })
        const becomesSubcontractor = input.isCisSubcontractor && existing.verification === null
        const updated = new Contact({
          ...existing,
          name: input.name,
          email: toEmail(input.email),
          isCustomer: input.isCustomer,
          isSupplier: input.isSupplier,
          isCisSubcontractor: input.isCisSubcontractor,
          vatRegistered: input.vatRegistered,
          vatNumber: blankAsNull(input.vatNumber),
          cisDetails:
            input.isCisSubcontractor && input.cisDetails ? toCisDetails(input.cisDetails) : existing.cisDetails,
          verification: becomesSubcontractor ? notVerified : existing.verification,
          supplierSettings:
            input.isSupplier && input.supplierSettings ? toSupplierSettings(input.supplierSettings) : null,
          updatedAt: yield* clock.now
        })
        return yield* transaction(
          Effect.gen(function* () {
            const inUse = yield* rolesInUse(yield* find(tenant, existing.code, true), input)
            if (inUse.length > 0) {
              return yield* new Conflict({ detail: `${existing.code} cannot lose the role: ${inUse.join("; ")}.` })
            }
            yield* repo.update(updated)
            yield* outbox.record(tenant.id, [
              event("contact.updated", updated),
              ...(becomesSubcontractor ? [event("subcontractor.created", updated)] : [])
            ])
            return updated
          })
        )
      }).pipe(Effect.withSpan("Contacts.update"))

    /** Deletes a contact that no invoice or connection refers to; its code is never issued again. */
    const remove = (code: string): Effect.Effect<void, NotFound | Conflict, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const contact = yield* find(tenant, code)
        yield* transaction(
          Effect.gen(function* () {
            yield* find(tenant, contact.code, true)
            const [sales, purchases, connections] = yield* Effect.all([
              activity.hasSalesInvoices(tenant.id, contact.id),
              activity.hasPurchaseInvoices(tenant.id, contact.id),
              activity.hasConnections(tenant.id, contact.id)
            ])
            const uses = [
              ...(sales ? ["sales invoices"] : []),
              ...(purchases ? ["purchase invoices"] : []),
              ...(connections ? ["a connection"] : [])
            ]
            if (uses.length > 0) {
              return yield* new Conflict({
                detail: `${contact.code} has ${uses.join(" and ")}, so it cannot be deleted.`
              })
            }
            yield* repo.remove(tenant.id, contact.id)
            yield* outbox.record(tenant.id, [event("contact.deleted", contact)])
          })
        )
      }).pipe(Effect.withSpan("Contacts.remove"))

    return { list, get, create, createIn, update, remove } as const
  })
}) {}
