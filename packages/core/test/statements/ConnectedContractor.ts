import { ClockOfEffect } from "@cisbook/testkit/SystemFakes"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { sandboxGateway } from "@cisbook/testkit/CisSchemeFixtures"
import { Duration, Effect, Layer, TestClock } from "effect"
import { Connections } from "../../src/connections/Connections.js"
import { Contact, notVerified, Verification } from "../../src/contacts/Contact.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { HmrcCredentialsSettings } from "../../src/credentials/HmrcCredentialsSettings.js"
import { Email } from "../../src/Email.js"
import { MailDispatch } from "../../src/mail/MailDispatch.js"
import { MailTransport } from "../../src/mail/MailTransport.js"
import { TenantEmailSettings } from "../../src/mail/TenantEmailSettings.js"
import { MonthlyReturns } from "../../src/returns/MonthlyReturns.js"
import { ReturnFiling } from "../../src/returns/ReturnFiling.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { UseCasesLive } from "../../src/UseCases.js"
import type { User } from "../../src/users/User.js"
import { asMember, asUser, aUser, plainCis } from "../TestApp.js"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"

/** When the tests start: the current tax month ends on 2026-12-05. */
export const START = new Date("2026-11-21T09:00:00.000Z")
export const LEASE = Duration.minutes(1)

export const CONTRACTOR = "lovelace"
export const SUBCONTRACTOR = "smith-gw"

/** An SMTP server that takes every mail. */
const MailTransportTaking = Layer.succeed(
  MailTransport,
  MailTransport.of({ send: () => Effect.succeed({ _tag: "Accepted" }) })
)

/**
 * Every use case over in-memory ports, the return filer and the mail sender, and the Clock port on
 * Effect's clock, moved with TestClock; `ports` replaces some of the memory ports (a wrapper that
 * fails, say).
 */
export const statementsAppWith = <Out, E>(ports: Layer.Layer<Out, E, Layer.Layer.Success<typeof MemoryPorts>>) =>
  Layer.mergeAll(ReturnFiling.Default, MailDispatch.Default.pipe(Layer.provide(MailTransportTaking))).pipe(
    Layer.provideMerge(UseCasesLive),
    Layer.provideMerge(ports),
    Layer.provideMerge(ClockOfEffect),
    Layer.provideMerge(MemoryPorts),
    Layer.provideMerge(identityVerifierFake({}))
  )

/** {@link statementsAppWith} the memory ports as they are. */
export const statementsApp = statementsAppWith(Layer.empty)

/** Makes the tenant's contact a verified CIS subcontractor, as the tax authority's answer would. */
const verify = (contact: Contact, treatment: "Net" | "Unmatched", email: string | null) =>
  Effect.flatMap(ContactRepo, (repo) =>
    repo.update(
      new Contact({
        ...contact,
        email: email === null ? null : Email.make(email),
        verification: new Verification({
          ...notVerified,
          status: "Verified",
          taxTreatment: treatment,
          verificationNumber: treatment === "Unmatched" ? "V9876543210/A" : "V1234567890",
          source: "Hmrc"
        })
      })
    )
  )

/** A verified CIS subcontractor of the contractor. */
const subcontractorOf = (
  owner: User,
  name: string,
  utr: string,
  treatment: "Net" | "Unmatched",
  email: string | null
) =>
  Effect.gen(function* () {
    const created = yield* (yield* Contacts)
      .create({
        name,
        isSupplier: true,
        isCisSubcontractor: true,
        cisDetails: plainCis({ firstName: "Jo", lastName: name, utr })
      })
      .pipe(asMember(owner, CONTRACTOR))
    yield* verify(created, treatment, email)
    return created.code
  })

/**
 * A contractor tenant (lovelace, "Lovelace Ltd") ready to file, with two verified subcontractors:
 * SMITH (Net, with an email address), whose own tenant (smith-gw) it invited and which accepted
 * with its customer LOVELACE; and BRICKS (Unmatched, no email address), not connected. The
 * contractor emails statements automatically. TestClock stands at START.
 */
export const aConnectedContractor = Effect.gen(function* () {
  yield* TestClock.setTime(START.getTime())
  const tenants = yield* Tenants
  const con = yield* aUser("con@example.com", "Con")
  const sub = yield* aUser("sub@example.com", "Sue")
  const contractor = (yield* tenants
    .create({ code: TenantCode.make(CONTRACTOR), name: "Lovelace Ltd", email: Email.make("office@lovelace.example") })
    .pipe(asUser(con))).tenant
  const subcontractor = (yield* tenants
    .create({ code: TenantCode.make(SUBCONTRACTOR), name: "Smith GW", email: null })
    .pipe(asUser(sub))).tenant
  const settings = yield* TenantSettings
  yield* settings
    .setCisDetails({ type: "Company", tradingName: "Lovelace Builders Ltd", utr: "8456789123" })
    .pipe(asMember(con, CONTRACTOR))
  yield* settings
    .setCisScheme({ employerReference: "123/AB45678", accountsOfficeReference: "123PW12345678" })
    .pipe(asMember(con, CONTRACTOR))
  yield* (yield* HmrcCredentialsSettings).set(sandboxGateway).pipe(asMember(con, CONTRACTOR))
  yield* (yield* TenantEmailSettings)
    .setSettings({ signature: null, autoEmailStatements: true })
    .pipe(asMember(con, CONTRACTOR))

  const smith = yield* subcontractorOf(con, "Smith", "2234567890", "Net", "smith@example.com")
  const bricks = yield* subcontractorOf(con, "Bricks", "4345678912", "Unmatched", null)
  const customer = yield* (yield* Contacts)
    .create({ name: "Lovelace", isCustomer: true })
    .pipe(asMember(sub, SUBCONTRACTOR))
  const connections = yield* Connections
  const invited = yield* connections
    .create({ contact: smith, direction: "In", email: "sub@example.com" })
    .pipe(asMember(con, CONTRACTOR))
  yield* connections
    .setCounterparty(invited.connection.id, { contact: customer.code })
    .pipe(asMember(sub, SUBCONTRACTOR))
  // The invitation is sent: the mail outbox holds only what the tests queue.
  yield* (yield* MailDispatch).sendDue(10, LEASE)
  return { con, sub, contractor, subcontractor, smith, bricks, customer, connection: invited.connection } as const
})

/** June 2026's lines: SMITH £1,000 gross, £400 materials, £120 deducted; BRICKS £500 gross, £150 deducted. */
export const juneLines = (smith: string, bricks: string) => [
  { contact: smith, grossAmount: 100000, materials: 40000, deducted: 12000 },
  { contact: bricks, grossAmount: 50000, materials: 0, deducted: 15000 }
]

/** Files the return and runs the filer until the tax authority has answered it. */
export const acceptedReturn = (
  con: User,
  lines: ReadonlyArray<{ contact: string; grossAmount: number; materials: number; deducted: number }>,
  periodEnd = "2026-06-05"
) =>
  Effect.gen(function* () {
    const filed = yield* (yield* MonthlyReturns)
      .file({ declarations: allDeclared, periodEnd, lines })
      .pipe(asMember(con, CONTRACTOR))
    yield* (yield* ReturnFiling).fileDue(10, LEASE)
    return yield* (yield* MonthlyReturns).get(filed.id).pipe(asMember(con, CONTRACTOR))
  })
