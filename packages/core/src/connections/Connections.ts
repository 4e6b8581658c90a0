import { Effect, Either, Option } from "effect"
import { missingForType } from "../cis/CisDetails.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { Connection, ConnectionParty, type ConnectionViewer, SharedDetails, sideOf } from "./Connection.js"
import type { ConnectionListRequest, NewConnection, SetCounterpartyRequest } from "./ConnectionInput.js"
import { invitationPurpose, roleCheck } from "./ConnectionRoles.js"
import { connectionEventJson } from "./ConnectionEventData.js"
import type { Contact } from "../contacts/Contact.js"
import { Conflict, NotFound, Refused, ValidationFailed } from "../Errors.js"
import { Email } from "../Email.js"
import { ConnectionId, isUuid } from "../Ids.js"
import { TenantMail } from "../mail/TenantMail.js"
import { AppLinks } from "../system/AppLinks.js"
import { Clock } from "../system/Clock.js"
import { ConnectionRepo } from "./ConnectionRepo.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { TenantSettingsRepo } from "../tenants/TenantSettingsRepo.js"
import { Transactor } from "../system/Transactor.js"
import type { Tenant } from "../tenants/Tenant.js"
import { CurrentUser } from "../users/CurrentUser.js"
import type { User } from "../users/User.js"
import { Contacts } from "../contacts/Contacts.js"
import { findContact, lookUpContact } from "../contacts/TenantContact.js"
import { Verifications } from "../verification/Verifications.js"

/** A connection and who is looking at it: what the viewer may see of it depends on its side. */
export interface SeenConnection {
  readonly connection: Connection
  readonly viewer: ConnectionViewer
}

const viewerOf = (tenant: Tenant, user: User): ConnectionViewer => ({
  tenantId: tenant.id,
  emails: [tenant.email, user.email].filter((email) => email !== null)
})

/** How a side's tenant sees the connection in its events: as itself, by its own emails alone. */
const asTenant = (party: ConnectionParty): ConnectionViewer => ({ tenantId: party.tenantId, emails: [] })

/**
 * Connections between tenants: one invites (In) or shares its CIS details (Out), by email; the
 * tenant it was sent to accepts, naming or creating its contact for the other, or rejects.
 */
export class Connections extends Effect.Service<Connections>()("core/Connections", {
  effect: Effect.gen(function* () {
    const contacts = yield* Contacts
    const contactRepo = yield* ContactRepo
    const repo = yield* ConnectionRepo
    const settings = yield* TenantSettingsRepo
    const mail = yield* TenantMail
    const links = yield* AppLinks
    const verifications = yield* Verifications
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator

    const notFound = (tenant: Tenant, id: string) =>
      new NotFound({ detail: `There is no connection ${id} that ${tenant.code} is a side of.` })

    /** The connection, if the viewer may see it; a malformed id cannot exist. */
    const visible = (tenant: Tenant, viewer: ConnectionViewer, id: string, forUpdate = false) =>
      (isUuid(id) ? repo.findVisible(viewer, ConnectionId.make(id), forUpdate) : Effect.succeedNone).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(tenant, id)), onSome: Effect.succeed }))
      )

    const list = (
      request: ConnectionListRequest
    ): Effect.Effect<ReadonlyArray<SeenConnection>, NotFound, CurrentTenant | CurrentUser> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const { user } = yield* CurrentUser
        const viewer = viewerOf(tenant, user)
        const direction = request.direction ?? null
        if (request.contact === undefined) {
          return (yield* repo.listSentTo(viewer, direction)).map((connection) => ({ connection, viewer }))
        }
        const contact = yield* lookUpContact(contactRepo, tenant, request.contact)
        if (Option.isNone(contact)) return []
        return (yield* repo.listForContact(tenant.id, contact.value.id, direction)).map((connection) => ({
          connection,
          viewer
        }))
      })

    const get = (id: string): Effect.Effect<SeenConnection, NotFound, CurrentTenant | CurrentUser> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const { user } = yield* CurrentUser
        const viewer = viewerOf(tenant, user)
        return { connection: yield* visible(tenant, viewer, id), viewer }
      })

    /** The tenant's own CIS details, complete for their type: what an Out connection shares. */
    const sharableCisDetails = (tenant: Tenant) =>
      Effect.gen(function* () {
        const details = yield* settings.getCisDetails(tenant.id)
        const missing = Option.match(details, { onNone: () => ["type"], onSome: missingForType })
        if (missing.length === 0) return Option.getOrNull(details)
        return yield* new Refused({
          detail: `${tenant.code}'s CIS details are not complete (missing: ${missing.join(", ")}), so there is nothing to share yet: complete the tenant's CIS details first.`,
          remedy: { _tag: "CompleteCisDetails", tenant: tenant.code }
        })
      })

    const create = (
      input: NewConnection
    ): Effect.Effect<SeenConnection, NotFound | ValidationFailed | Refused | Conflict, CurrentTenant | CurrentUser> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const { user } = yield* CurrentUser
        const viewer = viewerOf(tenant, user)
        return yield* transaction(
          Effect.gen(function* () {
            const contact = yield* findContact(contactRepo, tenant, input.contact, true)
            const wrongRole = roleCheck(contact, input.direction, "Initiator")
            if (wrongRole) return yield* wrongRole
            const cisDetails = input.direction === "Out" ? yield* sharableCisDetails(tenant) : null
            const connection = new Connection({
              id: ConnectionId.make(yield* ids.uuid),
              direction: input.direction,
              status: "Pending",
              initiator: new ConnectionParty({
                tenantId: tenant.id,
                tenantCode: tenant.code,
                tenantName: tenant.name,
                contactId: contact.id,
                contactCode: contact.code
              }),
              receiver: null,
              email: Email.make(input.email),
              shared: new SharedDetails({ name: tenant.name, email: tenant.email ?? user.email, cisDetails }),
              createdAt: yield* clock.now,
              connectedAt: null,
              rejectedAt: null
            })
            yield* repo.insert(connection).pipe(
              Effect.catchTag("DuplicateKey", () =>
                Effect.fail(
                  new Conflict({
                    detail: `${contact.code} already has a connection in the ${input.direction} direction (Pending, Connected or Rejected): delete it to send a new one.`
                  })
                )
              )
            )
            yield* mail.queue({
              tenantId: tenant.id,
              type: "ConnectionInvitation",
              to: connection.email,
              values: {
                tenantName: tenant.name,
                contactName: contact.name,
                purpose: invitationPurpose(tenant.name, input.direction),
                connectionUrl: links.connection(connection.id)
              },
              actingUserEmail: user.email
            })
            return { connection, viewer }
          })
        )
      }).pipe(Effect.withSpan("Connections.create"))

    /** The receiver's contact: the one named, which must fit, or a new one from the shared details. */
    const receiverContact = (tenant: Tenant, connection: Connection, choice: SetCounterpartyRequest) =>
      Effect.gen(function* () {
        if (choice.contact != null) {
          const named = yield* findContact(contactRepo, tenant, choice.contact, true)
          const wrongRole = roleCheck(named, connection.direction, "Receiver")
          if (wrongRole) return yield* wrongRole
          return named
        }
        const { shared } = connection
        const created = yield* contacts.createIn(
          tenant,
          connection.direction === "Out"
            ? {
                name: shared.name,
                email: shared.email,
                isSupplier: true,
                isCisSubcontractor: true,
                cisDetails: shared.cisDetails ? { ...shared.cisDetails } : null
              }
            : { name: shared.name, email: shared.email, isCustomer: true }
        )
        if (connection.direction === "In") return created
        // The contractor starts verifying the subcontractor it has just taken on, if its identity allows.
        const verifiable = yield* Effect.either(verifications.check(created))
        return Either.isRight(verifiable) ? yield* verifications.start(tenant, created) : created
      })

    /** Accepts a Pending connection sent to the tenant: sets the tenant's side, its counterparty. */
    const setCounterparty = (
      id: string,
      choice: SetCounterpartyRequest
    ): Effect.Effect<SeenConnection, NotFound | ValidationFailed | Refused, CurrentTenant | CurrentUser> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const { user } = yield* CurrentUser
        const viewer = viewerOf(tenant, user)
        return yield* transaction(
          Effect.gen(function* () {
            const connection = yield* visible(tenant, viewer, id, true)
            if (sideOf(connection, viewer) === "Initiator") {
              return yield* new Refused({
                detail: `${tenant.code} sent this connection: the tenant it was sent to accepts it.`
              })
            }
            if (connection.status !== "Pending") {
              return yield* new Refused({
                detail: `This connection is ${connection.status}: only a Pending connection can be accepted.`
              })
            }
            const contact: Contact = yield* receiverContact(tenant, connection, choice)
            const receiver = new ConnectionParty({
              tenantId: tenant.id,
              tenantCode: tenant.code,
              tenantName: tenant.name,
              contactId: contact.id,
              contactCode: contact.code
            })
            const now = yield* clock.now
            yield* repo
              .connect(viewer, connection.id, receiver, now)
              .pipe(
                Effect.catchTag("DuplicateKey", () =>
                  Effect.fail(
                    ValidationFailed.one(
                      "contact",
                      `${contact.code} already has a connection in the ${connection.direction} direction.`
                    )
                  )
                )
              )
            const connected = new Connection({ ...connection, status: "Connected", receiver, connectedAt: now })
            for (const party of [connected.initiator, receiver]) {
              yield* outbox.record(party.tenantId, [
                { type: "connection.connected", data: connectionEventJson(connected, asTenant(party)) }
              ])
            }
            return { connection: connected, viewer }
          })
        )
      }).pipe(Effect.withSpan("Connections.setCounterparty"))

    /** The receiver of a Pending connection rejects it; any other side removes it for both. */
    const remove = (id: string): Effect.Effect<void, NotFound, CurrentTenant | CurrentUser> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const { user } = yield* CurrentUser
        const viewer = viewerOf(tenant, user)
        yield* transaction(
          Effect.gen(function* () {
            const connection = yield* visible(tenant, viewer, id, true)
            if (sideOf(connection, viewer) === "SentTo") {
              yield* repo.reject(viewer, connection.id, yield* clock.now)
            } else {
              yield* repo.remove(tenant.id, connection.id)
            }
          })
        )
      }).pipe(Effect.withSpan("Connections.remove"))

    return { list, get, create, setCounterparty, remove } as const
  })
}) {}
