import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { sandboxGateway } from "@cisbook/testkit/CisSchemeFixtures"
import { APP_URL } from "@cisbook/testkit/AppLinksFake"
import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Conflict, NotFound, Refused, ValidationFailed } from "../../src/Errors.js"
import { VerificationQueue } from "../../src/verification/VerificationQueue.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Connections, type SeenConnection } from "../../src/connections/Connections.js"
import { connectionEventData } from "../../src/connections/ConnectionEventData.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { Verifications } from "../../src/verification/Verifications.js"
import { outboxMails } from "../mail/OutboxMails.js"
import { asMember, asUser, aUser, plainCis, testApp } from "../TestApp.js"

const john = { type: "SoleTrader" as const, firstName: "John", lastName: "Smith", utr: "2234567890" }
const scheme = { employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" }

const dto = ({ connection, viewer }: SeenConnection) => connectionEventData(connection, viewer)

/** The use case, answering as the API shows a connection to the caller. */
const asTheApiShowsIt = (connections: Connections) => ({
  ...connections,
  list: (...args: Parameters<Connections["list"]>) => Effect.map(connections.list(...args), (all) => all.map(dto)),
  get: (...args: Parameters<Connections["get"]>) => Effect.map(connections.get(...args), dto),
  create: (...args: Parameters<Connections["create"]>) => Effect.map(connections.create(...args), dto),
  setCounterparty: (...args: Parameters<Connections["setCounterparty"]>) =>
    Effect.map(connections.setCounterparty(...args), dto)
})

/** A subcontractor tenant (sub) with CIS details and a customer, and a contractor tenant (con) with its own email. */
const setUp = Effect.gen(function* () {
  const tenants = yield* Tenants
  const subUser = yield* aUser("sub@example.com", "Sue")
  const conUser = yield* aUser("con@example.com", "Con")
  const sub = (yield* tenants
    .create({ code: TenantCode.make("smith-gw"), name: "Smith GW", email: null })
    .pipe(asUser(subUser))).tenant
  const con = (yield* tenants
    .create({
      code: TenantCode.make("lovelace"),
      name: "Lovelace Ltd",
      email: "office@lovelace.example" as never
    })
    .pipe(asUser(conUser))).tenant
  yield* (yield* TenantSettings).setCisDetails(john).pipe(asMember(subUser, "smith-gw"))
  // The contractor's own UTR, which HMRC's verification request carries.
  yield* (yield* TenantSettings)
    .setCisDetails({
      type: "Company",
      tradingName: "Lovelace Ltd",
      utr: "1097172564"
    })
    .pipe(asMember(conUser, "lovelace"))
  const customer = yield* (yield* Contacts)
    .create({ name: "Lovelace", isCustomer: true })
    .pipe(asMember(subUser, "smith-gw"))
  const eventsOf = (tenantId: typeof sub.id) =>
    Effect.map(
      Effect.flatMap(RecordedEvents, (r) => r.list(tenantId)),
      (all) => all.map((e) => ({ type: e.type, data: e.data as Record<string, unknown> }))
    )
  return { subUser, conUser, sub, con, customer, eventsOf, connections: asTheApiShowsIt(yield* Connections) } as const
})

describe("Connections", () => {
  it.effect("a create queues the invitation with the ConnectionInvitation template, the link and the purpose", () =>
    Effect.gen(function* () {
      const { connections, customer, sub, subUser } = yield* setUp
      const sent = yield* connections
        .create({
          contact: customer.code,
          direction: "Out",
          email: "office@lovelace.example"
        })
        .pipe(asMember(subUser, "smith-gw"))
      const [mail, ...others] = yield* outboxMails
      expect(others).toEqual([])
      expect(mail).toMatchObject({
        tenantId: sub.id,
        type: "ConnectionInvitation",
        to: "office@lovelace.example",
        fromName: "Smith GW",
        replyTo: "sub@example.com",
        subject: "Smith GW would like to connect with you on cisbook"
      })
      expect(mail?.body).toContain("Dear Lovelace,\n\nSmith GW would like to share their CIS details with you.\n")
      expect(mail?.body).toContain(`please follow this link:\n${APP_URL}/connections/${sent.id}\n`)
      expect(sent.sharedDetails).toEqual({
        name: "Smith GW",
        email: "sub@example.com",
        cisDetails: plainCis({ ...john, utr: "2234567890" })
      })
    }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "a tenant sees what was sent to its own email; accepting makes a verified-to-be subcontractor and tells both",
    () =>
      Effect.gen(function* () {
        const { con, conUser, connections, customer, eventsOf, sub, subUser } = yield* setUp
        const sent = yield* connections
          .create({
            contact: customer.code,
            direction: "Out",
            email: "office@lovelace.example"
          })
          .pipe(asMember(subUser, "smith-gw"))
        // Sent to the tenant's email, not the user's: the tenant sees it, the sender's other tenants do not.
        expect((yield* connections.list({}).pipe(asMember(conUser, "lovelace"))).map((c) => c.id)).toEqual([sent.id])
        expect(yield* connections.list({ direction: "In" }).pipe(asMember(conUser, "lovelace"))).toEqual([])
        yield* (yield* TenantSettings).setCisScheme(scheme).pipe(asMember(conUser, "lovelace"))
        yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(asMember(conUser, "lovelace"))
        const before = (yield* eventsOf(con.id)).length
        const accepted = yield* connections.setCounterparty(sent.id, {}).pipe(asMember(conUser, "lovelace"))
        const made = yield* (yield* Contacts).get(accepted.contact!).pipe(asMember(conUser, "lovelace"))
        expect(made).toMatchObject({ isSupplier: true, isCisSubcontractor: true, email: "sub@example.com" })
        expect(made.verification).toMatchObject({ source: "Hmrc", message: "Verification requested" })
        expect(Option.isSome(yield* (yield* VerificationQueue).find(con.id, made.id))).toBe(true)
        const conEvents = (yield* eventsOf(con.id)).slice(before).map((e) => e.type)
        expect(conEvents).toEqual([
          "contact.created",
          "subcontractor.created",
          "contact.updated",
          "connection.connected"
        ])
        const [subConnected] = (yield* eventsOf(sub.id)).filter((e) => e.type === "connection.connected")
        expect(subConnected?.data).toMatchObject({
          id: sent.id,
          side: "Initiator",
          contact: customer.code,
          counterparty: { tenant: "lovelace", name: "Lovelace Ltd" },
          status: "Connected"
        })
        const [conConnected] = (yield* eventsOf(con.id)).filter((e) => e.type === "connection.connected")
        expect(conConnected?.data).toMatchObject({ side: "Receiver", contact: made.code })
      }).pipe(Effect.provide(testApp()))
  )

  it.effect(
    "accepting while the contractor has no CIS scheme registration still connects; the verification ends Error saying to set it, and can be started again",
    () =>
      Effect.gen(function* () {
        const { con, conUser, connections, customer, eventsOf, subUser } = yield* setUp
        const sent = yield* connections
          .create({
            contact: customer.code,
            direction: "Out",
            email: "office@lovelace.example"
          })
          .pipe(asMember(subUser, "smith-gw"))
        const accepted = yield* connections.setCounterparty(sent.id, {}).pipe(asMember(conUser, "lovelace"))
        expect(accepted.status).toBe("Connected")
        const made = yield* (yield* Contacts).get(accepted.contact!).pipe(asMember(conUser, "lovelace"))
        expect(made.verification).toMatchObject({ status: "Error", source: "Hmrc", verificationNumber: null })
        expect(made.verification?.message).toMatch(/set the contractor's CIS scheme registration/)
        expect(made.verification?.message).not.toMatch(/\/tenants|PUT|settings\//)
        expect(yield* (yield* VerificationQueue).find(con.id, made.id)).toEqual(Option.none())
        const [updated] = (yield* eventsOf(con.id)).filter((e) => e.type === "contact.updated")
        expect(updated?.data).toMatchObject({ code: made.code, verification: { status: "Error" } })
        yield* (yield* TenantSettings).setCisScheme(scheme).pipe(asMember(conUser, "lovelace"))
        yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(asMember(conUser, "lovelace"))
        const again = yield* (yield* Verifications).request(made.code).pipe(asMember(conUser, "lovelace"))
        expect(again.verification).toMatchObject({ status: "NotVerified", message: "Verification requested" })
        expect(Option.isSome(yield* (yield* VerificationQueue).find(con.id, made.id))).toBe(true)
      }).pipe(Effect.provide(testApp()))
  )

  it.effect("In creates a customer without verification; rules of roles, pending and sides are kept", () =>
    Effect.gen(function* () {
      const { conUser, connections, customer, subUser } = yield* setUp
      const subbie = yield* (yield* Contacts)
        .create({
          name: "Smith",
          isSupplier: true,
          isCisSubcontractor: true
        })
        .pipe(asMember(conUser, "lovelace"))
      const wrong = yield* Effect.flip(
        connections
          .create({ contact: subbie.code, direction: "Out", email: "sub@example.com" })
          .pipe(asMember(conUser, "lovelace"))
      )
      assert(wrong instanceof ValidationFailed)
      const invited = yield* connections
        .create({
          contact: subbie.code,
          direction: "In",
          email: "sub@example.com"
        })
        .pipe(asMember(conUser, "lovelace"))
      expect(
        yield* Effect.flip(
          connections
            .create({ contact: subbie.code, direction: "In", email: "x@example.com" })
            .pipe(asMember(conUser, "lovelace"))
        )
      ).toBeInstanceOf(Conflict)
      expect(
        yield* Effect.flip(connections.setCounterparty(invited.id, {}).pipe(asMember(conUser, "lovelace")))
      ).toBeInstanceOf(Refused)
      const joined = yield* connections
        .setCounterparty(invited.id, { contact: customer.code })
        .pipe(asMember(subUser, "smith-gw"))
      expect(joined).toMatchObject({ status: "Connected", contact: customer.code, side: "Receiver" })
      expect(
        yield* Effect.flip(connections.setCounterparty(invited.id, {}).pipe(asMember(subUser, "smith-gw")))
      ).toBeInstanceOf(Refused)
      const stranger = yield* aUser("stranger@example.com")
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("stranger"), name: "S", email: null })
        .pipe(asUser(stranger))
      expect(yield* Effect.flip(connections.get(invited.id).pipe(asMember(stranger, "stranger")))).toBeInstanceOf(
        NotFound
      )
      expect(yield* Effect.flip(connections.remove(invited.id).pipe(asMember(stranger, "stranger")))).toBeInstanceOf(
        NotFound
      )
      yield* connections.remove(invited.id).pipe(asMember(subUser, "smith-gw"))
      expect(yield* Effect.flip(connections.get(invited.id).pipe(asMember(conUser, "lovelace")))).toBeInstanceOf(
        NotFound
      )
      expect(yield* (yield* Contacts).get(customer.code).pipe(asMember(subUser, "smith-gw"))).toMatchObject({
        code: customer.code
      })
    }).pipe(Effect.provide(testApp()))
  )
})
