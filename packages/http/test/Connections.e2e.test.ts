import { smtpMailTransport } from "@cisbook/adapters/mail/SmtpMailTransport"
import { MailDispatch } from "@cisbook/core/mail/MailDispatch"
import { APP_URL } from "@cisbook/testkit/AppLinksFake"
import { type SmtpReceiver, startSmtpReceiver } from "@cisbook/testkit/SmtpReceiver"
import { assert, expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { mailSender } from "../src/workers/MailSender.js"
import { registerCisScheme } from "./CisSchemeSetting.js"
import { e2e, ownerOfNewTenant, raw, ServerUnderTest, SqlTestPorts } from "./E2E.js"

const FROM = "mail@cisbook.example"

const johnSmith = {
  type: "SoleTrader",
  title: null,
  firstName: "John",
  secondName: null,
  lastName: "Smith",
  tradingName: "Smith Groundworks",
  utr: "2234567890",
  niNumber: null,
  companyNumber: null
} as const

/** Runs the server's mail sender against the SMTP server while the test's scope lives. */
const startSender = (smtp: SmtpReceiver) =>
  Effect.gen(function* () {
    const scope = yield* Effect.acquireRelease(Scope.make(), (s) => Scope.close(s, Exit.void))
    yield* Layer.buildWithScope(
      mailSender({ pollInterval: Duration.millis(20), concurrency: 4, lease: Duration.seconds(120) }).pipe(
        Layer.provide(MailDispatch.Default),
        Layer.provide(smtpMailTransport({ url: smtp.url, from: FROM, connections: 1 }))
      ),
      scope
    )
  })

/** A subcontractor tenant with its CIS details and a customer (the contractor it invoices). */
const aSubcontractor = (name: string) =>
  Effect.gen(function* () {
    const sub = yield* ownerOfNewTenant(name)
    yield* sub.api.settings.updateCisDetails({
      path: { tenant: sub.tenant },
      payload: {
        type: "SoleTrader",
        firstName: "John",
        lastName: "Smith",
        tradingName: "Smith Groundworks",
        utr: "2234567890"
      }
    })
    const customer = yield* sub.api.contacts.createContact({
      path: { tenant: sub.tenant },
      payload: { name: "Lovelace Builders", isCustomer: true }
    })
    return { ...sub, customer }
  })

/** The application, and its SQL ports for the mail sender (one build: the same database and server). */
const App = Layer.merge(e2e(SqlTestPorts), SqlTestPorts).pipe(Layer.provide(ServerUnderTest))

layer(App, { excludeTestServices: true, timeout: "90 seconds" })("connections over HTTP", (it) => {
  it.scoped(
    "two tenants of two users connect both ways through the SDK; the invitation arrives on a real SMTP server",
    () =>
      Effect.gen(function* () {
        const smtp = yield* startSmtpReceiver
        yield* startSender(smtp)
        const sub = yield* aSubcontractor("smithgw")
        const con = yield* ownerOfNewTenant("lovelace")

        // Out: the subcontractor shares its CIS details with the contractor.
        const sent = yield* sub.api.connections.createConnection({
          path: { tenant: sub.tenant },
          payload: { contact: sub.customer.code.toLowerCase(), direction: "Out", email: con.user.email }
        })
        expect(sent).toMatchObject({
          direction: "Out",
          status: "Pending",
          side: "Initiator",
          contact: sub.customer.code,
          email: con.user.email,
          counterparty: { tenant: null, name: null },
          sharedDetails: { name: "smithgw Ltd", email: sub.user.email, cisDetails: johnSmith },
          nextStep: `We emailed ${con.user.email}. When they accept, you are connected.`,
          connectedAt: null,
          rejectedAt: null
        })
        const [mail] = yield* smtp.waitFor(1)
        assert(mail !== undefined)
        expect(mail.envelopeTo).toEqual([con.user.email])
        expect(mail.parsed.subject).toBe("smithgw Ltd would like to connect with you on cisbook")
        expect(mail.parsed.from?.value).toEqual([{ name: "smithgw Ltd", address: FROM }])
        expect(mail.parsed.replyTo?.value).toEqual([{ name: "", address: sub.user.email }])
        expect(mail.parsed.text).toContain("Dear Lovelace Builders,")
        expect(mail.parsed.text).toContain("smithgw Ltd would like to share their CIS details with you.")
        expect(mail.parsed.text).toContain(`${APP_URL}/connections/${sent.id}`)

        // The contractor finds it waiting, and accepts without a contact: one is made and verified.
        yield* registerCisScheme(con, con.tenant)
        // The contractor's own UTR, which HMRC's verification request carries.
        yield* con.api.settings.updateCisDetails({
          path: { tenant: con.tenant },
          payload: { type: "Company", tradingName: "Lovelace Ltd", utr: "8456789123" }
        })
        const waiting = yield* con.api.connections.listConnections({ path: { tenant: con.tenant }, urlParams: {} })
        expect(waiting.map((c) => [c.id, c.side, c.contact])).toEqual([[sent.id, "Receiver", null]])
        expect(waiting[0]?.nextStep).toMatch(/^smithgw Ltd would like to share their CIS details with you\./)
        const accepted = yield* con.api.connections.setConnectionCounterparty({
          path: { tenant: con.tenant, connection: sent.id },
          payload: {}
        })
        expect(accepted).toMatchObject({
          status: "Connected",
          side: "Receiver",
          counterparty: { tenant: sub.tenant, name: "smithgw Ltd" },
          nextStep: null
        })
        assert(accepted.contact !== null)
        const made = yield* con.api.contacts.getContact({ path: { tenant: con.tenant, code: accepted.contact } })
        expect(made).toMatchObject({
          name: "smithgw Ltd",
          email: sub.user.email,
          isSupplier: true,
          isCisSubcontractor: true,
          isCustomer: false,
          cisDetails: johnSmith,
          verification: { status: "NotVerified", source: "Hmrc", message: "Verification requested" }
        })
        const asInitiator = yield* sub.api.connections.getConnection({
          path: { tenant: sub.tenant, connection: sent.id }
        })
        expect(asInitiator).toMatchObject({
          status: "Connected",
          side: "Initiator",
          contact: sub.customer.code,
          counterparty: { tenant: con.tenant, name: "lovelace Ltd" }
        })
        expect(yield* con.api.connections.listConnections({ path: { tenant: con.tenant }, urlParams: {} })).toEqual([])

        // In: the contractor invites the subcontractor, who accepts naming its customer.
        const invited = yield* con.api.connections.createConnection({
          path: { tenant: con.tenant },
          payload: { contact: made.code, direction: "In", email: sub.user.email }
        })
        expect(invited).toMatchObject({ direction: "In", side: "Initiator", sharedDetails: { cisDetails: null } })
        const [, second] = yield* smtp.waitFor(2)
        expect(second?.parsed.text).toContain("lovelace Ltd would like to add you as a CIS subcontractor.")
        const joined = yield* sub.api.connections.setConnectionCounterparty({
          path: { tenant: sub.tenant, connection: invited.id },
          payload: { contact: sub.customer.code }
        })
        expect(joined).toMatchObject({ status: "Connected", side: "Receiver", contact: sub.customer.code })
        const both = yield* sub.api.connections.listConnections({
          path: { tenant: sub.tenant },
          urlParams: { contact: sub.customer.code }
        })
        expect(both.map((c) => [c.direction, c.side, c.status])).toEqual([
          ["In", "Receiver", "Connected"],
          ["Out", "Initiator", "Connected"]
        ])
        const outOnly = yield* sub.api.connections.listConnections({
          path: { tenant: sub.tenant },
          urlParams: { contact: sub.customer.code, direction: "Out" }
        })
        expect(outOnly.map((c) => c.id)).toEqual([sent.id])
      })
  )

  it.effect("a tenant on neither side never sees, accepts or deletes a connection: 404", () =>
    Effect.gen(function* () {
      const sub = yield* aSubcontractor("isolsub")
      const con = yield* ownerOfNewTenant("isolcon")
      const other = yield* ownerOfNewTenant("isolother")
      const sent = yield* sub.api.connections.createConnection({
        path: { tenant: sub.tenant },
        payload: { contact: sub.customer.code, direction: "Out", email: con.user.email }
      })
      const path = `/tenants/${other.tenant}/connections/${sent.id}`
      expect((yield* raw(other.key, "GET", path)).status).toBe(404)
      expect((yield* raw(other.key, "PUT", `${path}/counterparty`, {})).status).toBe(404)
      expect((yield* raw(other.key, "DELETE", path)).status).toBe(404)
      expect((yield* raw(other.key, "GET", `/tenants/${other.tenant}/connections`)).body).toEqual([])
      expect((yield* raw(other.key, "GET", `/tenants/${other.tenant}/connections/not-a-uuid`)).status).toBe(404)
      // Not a member of the initiator's tenant: 403.
      expect((yield* raw(other.key, "GET", `/tenants/${sub.tenant}/connections/${sent.id}`)).status).toBe(403)
      const still = yield* sub.api.connections.getConnection({ path: { tenant: sub.tenant, connection: sent.id } })
      expect(still.status).toBe("Pending")
    })
  )

  it.effect("rejecting keeps the initiator's record Rejected and 409 stands until it deletes it", () =>
    Effect.gen(function* () {
      const sub = yield* aSubcontractor("rejsub")
      const con = yield* ownerOfNewTenant("rejcon")
      const payload = { contact: sub.customer.code, direction: "Out" as const, email: con.user.email }
      const sent = yield* sub.api.connections.createConnection({ path: { tenant: sub.tenant }, payload })
      const again = yield* raw(sub.key, "POST", `/tenants/${sub.tenant}/connections`, payload)
      expect(again.status).toBe(409)
      expect(again.contentType).toMatch(/^application\/problem\+json/)
      expect((yield* raw(con.key, "DELETE", `/tenants/${con.tenant}/connections/${sent.id}`)).status).toBe(204)
      expect((yield* raw(con.key, "GET", `/tenants/${con.tenant}/connections/${sent.id}`)).status).toBe(404)
      const rejected = yield* sub.api.connections.getConnection({ path: { tenant: sub.tenant, connection: sent.id } })
      expect(rejected.status).toBe("Rejected")
      assert(rejected.rejectedAt instanceof Date)
      expect((yield* raw(sub.key, "POST", `/tenants/${sub.tenant}/connections`, payload)).status).toBe(409)
      // The contact is its side of a connection: it cannot be deleted.
      expect((yield* raw(sub.key, "DELETE", `/tenants/${sub.tenant}/contacts/${sub.customer.code}`)).status).toBe(409)
      expect((yield* raw(sub.key, "DELETE", `/tenants/${sub.tenant}/connections/${sent.id}`)).status).toBe(204)
      expect((yield* raw(sub.key, "POST", `/tenants/${sub.tenant}/connections`, payload)).status).toBe(201)
    })
  )

  it.effect("names what it refuses: wrong role, incomplete CIS details, unknown contact, bad body, bad direction", () =>
    Effect.gen(function* () {
      const con = yield* ownerOfNewTenant("badcon")
      const customer = yield* con.api.contacts.createContact({
        path: { tenant: con.tenant },
        payload: { name: "Cust", isCustomer: true }
      })
      const post = (body: unknown) => raw(con.key, "POST", `/tenants/${con.tenant}/connections`, body)
      const noDetails = yield* post({ contact: customer.code, direction: "Out", email: "a@example.com" })
      expect(noDetails.status).toBe(400)
      expect(noDetails.body?.detail).toMatch(/CIS details are not complete/)
      // The core says what to do; the HTTP answer adds the request that does it.
      expect(noDetails.body?.detail).toMatch(
        new RegExp(`complete the tenant's CIS details first\\. \\(PUT /tenants/${con.tenant}/settings/cis-details\\)$`)
      )
      const wrongRole = yield* post({ contact: customer.code, direction: "In", email: "a@example.com" })
      expect(wrongRole.status).toBe(400)
      expect(Object.keys(wrongRole.body?.errors ?? {})).toEqual(["contact"])
      expect((yield* post({ contact: "NOPE", direction: "In", email: "a@example.com" })).status).toBe(404)
      const bad = yield* post({ contact: "", direction: "Sideways", email: "nope" })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body?.errors ?? {}).sort()).toEqual(["contact", "direction", "email"])
      const badList = yield* raw(con.key, "GET", `/tenants/${con.tenant}/connections?direction=Up`)
      expect(badList.status).toBe(400)
      expect((yield* raw(con.key, "GET", `/tenants/${con.tenant}/connections?contact=NOPE`)).body).toEqual([])
    })
  )

  it.effect("accepting is for the tenant it was sent to, once, with a contact of the right role", () =>
    Effect.gen(function* () {
      const sub = yield* aSubcontractor("accsub")
      const con = yield* ownerOfNewTenant("acccon")
      const sent = yield* sub.api.connections.createConnection({
        path: { tenant: sub.tenant },
        payload: { contact: sub.customer.code, direction: "Out", email: con.user.email }
      })
      const accept = (who: { key: string; tenant: string }, body: unknown) =>
        raw(who.key, "PUT", `/tenants/${who.tenant}/connections/${sent.id}/counterparty`, body)
      const byInitiator = yield* accept(sub, {})
      expect(byInitiator.status).toBe(400)
      const customer = yield* con.api.contacts.createContact({
        path: { tenant: con.tenant },
        payload: { name: "Not a sub", isCustomer: true }
      })
      const wrongRole = yield* accept(con, { contact: customer.code })
      expect(wrongRole.status).toBe(400)
      expect(Object.keys(wrongRole.body?.errors ?? {})).toEqual(["contact"])
      expect((yield* accept(con, { contact: "NOPE" })).status).toBe(404)
      const mine = yield* con.api.contacts.createContact({
        path: { tenant: con.tenant },
        payload: {
          name: "John Smith",
          isSupplier: true,
          isCisSubcontractor: true,
          cisDetails: johnSmith
        }
      })
      const ok = yield* accept(con, { contact: mine.code })
      expect(ok.status).toBe(200)
      expect(ok.body).toMatchObject({ status: "Connected", contact: mine.code })
      expect((yield* accept(con, {})).status).toBe(400)
      // Either side removes a Connected one for both; the contacts stay.
      expect((yield* raw(con.key, "DELETE", `/tenants/${con.tenant}/connections/${sent.id}`)).status).toBe(204)
      expect((yield* raw(sub.key, "GET", `/tenants/${sub.tenant}/connections/${sent.id}`)).status).toBe(404)
      expect((yield* raw(con.key, "GET", `/tenants/${con.tenant}/contacts/${mine.code}`)).status).toBe(200)
    })
  )
})
