import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option, TestClock } from "effect"
import { Connections } from "../../src/connections/Connections.js"
import type { TenantId } from "../../src/Ids.js"
import { MailOutbox } from "../../src/mail/MailOutbox.js"
import { TenantEmailSettings } from "../../src/mail/TenantEmailSettings.js"
import { TenantSettings } from "../../src/tenants/TenantSettings.js"
import { ReturnStatementRepo } from "../../src/returns/ReturnStatementRepo.js"
import { ReturnStatements } from "../../src/returns/ReturnStatements.js"
import { ReceivedStatements } from "../../src/statements/ReceivedStatements.js"
import { receivedStatementEventJson } from "../../src/statements/ReceivedStatementEventData.js"
import { StatementDelivery } from "../../src/statements/StatementDelivery.js"
import { asMember } from "../TestApp.js"
import {
  acceptedReturn,
  aConnectedContractor,
  CONTRACTOR,
  juneLines,
  LEASE,
  START,
  statementsApp,
  SUBCONTRACTOR
} from "./ConnectedContractor.js"

const receivedEvents = (tenantId: TenantId) =>
  Effect.map(
    Effect.flatMap(RecordedEvents, (events) => events.list(tenantId)),
    (all) => all.filter((e) => e.type === "cis-statement.received")
  )

describe("StatementDelivery", () => {
  it.effect("delivers the statement of each connected line into the subcontractor's tenant, with its event", () =>
    Effect.gen(function* () {
      const { bricks, con, contractor, customer, smith, sub, subcontractor } = yield* aConnectedContractor
      const accepted = yield* acceptedReturn(con, juneLines(smith, bricks))
      yield* TestClock.adjust(Duration.seconds(5))
      expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(1)

      const received = yield* ReceivedStatements
      const [only, ...rest] = yield* received.list({}).pipe(asMember(sub, SUBCONTRACTOR))
      expect(rest).toEqual([])
      expect(only!.statement).toMatchObject({
        tenantId: subcontractor.id,
        source: { tenantId: contractor.id, monthlyReturnId: accepted.id, contactId: accepted.lines[0]!.contactId },
        contractor: { tenantCode: CONTRACTOR, name: "Lovelace Ltd", employerReference: "123/AB45678" },
        contact: { id: customer.id, code: customer.code },
        periodEnd: "2026-06-05",
        taxTreatment: "Net",
        verificationNumber: "V1234567890",
        grossAmount: 100000,
        materials: 40000,
        deducted: 12000,
        receivedAt: new Date(START.getTime() + 5000)
      })
      expect(only!.reconciliation).toEqual({ payments: 0, deducted: 0, difference: 12000, status: "NoPayments" })

      // The event is the statement as the API shows it, in the subcontractor's tenant only.
      const [event, ...more] = yield* receivedEvents(subcontractor.id)
      expect(more).toEqual([])
      expect(event!.data).toEqual(receivedStatementEventJson(only!))
      expect(event!.data).toMatchObject({
        contractor: { tenant: CONTRACTOR, name: "Lovelace Ltd", employerReference: "123/AB45678" },
        contact: customer.code,
        grossAmount: 1000,
        materials: 400,
        deducted: 120,
        reconciliation: { payments: 0, deducted: 0, difference: 120, status: "NoPayments" }
      })
      expect(yield* receivedEvents(contractor.id)).toEqual([])

      // Delivered once: nothing is due any more.
      expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(0)
      expect(yield* received.list({}).pipe(asMember(sub, SUBCONTRACTOR))).toHaveLength(1)
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect("delivers the PDF that was mailed, which the subcontractor downloads", () =>
    Effect.gen(function* () {
      const { bricks, con, smith, sub } = yield* aConnectedContractor
      const accepted = yield* acceptedReturn(con, juneLines(smith, bricks))
      const [mail] = yield* (yield* MailOutbox).claimDue(START, new Date(START.getTime() + 60_000), 10)
      yield* (yield* StatementDelivery).deliverDue(10, LEASE)
      const received = yield* ReceivedStatements
      const [only] = yield* received.list({}).pipe(asMember(sub, SUBCONTRACTOR))
      const pdf = yield* received.pdf(only!.statement.id).pipe(asMember(sub, SUBCONTRACTOR))
      expect(pdf.filename).toBe(`statement-${CONTRACTOR}-2026-06-05.pdf`)
      expect(pdf.content).toEqual(mail!.mail.attachments[0]!.content)
      const contractors = yield* (yield* ReturnStatements).pdf(accepted.id, smith).pipe(asMember(con, CONTRACTOR))
      expect(contractors.content).toEqual(pdf.content)
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect("draws and keeps the PDF of a statement that was not mailed, the same for both tenants", () =>
    Effect.gen(function* () {
      const { bricks, con, smith, sub } = yield* aConnectedContractor
      // The contractor stops emailing statements: SMITH's is delivered only.
      yield* (yield* TenantEmailSettings)
        .setSettings({ signature: null, autoEmailStatements: false })
        .pipe(asMember(con, CONTRACTOR))
      const accepted = yield* acceptedReturn(con, juneLines(smith, bricks))
      const smithLine = accepted.lines.find((l) => l.contactCode === smith)!
      const keptPdf = Effect.flatMap(ReturnStatementRepo, (repo) =>
        repo.pdf(accepted.tenantId, accepted.id, smithLine.contactId)
      )
      expect(yield* keptPdf).toEqual(Option.none())
      yield* (yield* StatementDelivery).deliverDue(10, LEASE)
      const received = yield* ReceivedStatements
      const [only] = yield* received.list({}).pipe(asMember(sub, SUBCONTRACTOR))
      const delivered = yield* received.pdf(only!.statement.id).pipe(asMember(sub, SUBCONTRACTOR))
      expect(yield* keptPdf).toEqual(Option.some(delivered.content))
      const contractors = yield* (yield* ReturnStatements).pdf(accepted.id, smith).pipe(asMember(con, CONTRACTOR))
      expect(contractors.content).toEqual(delivered.content)
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect("two deliverers claiming at once get each delivery once", () =>
    Effect.gen(function* () {
      const { bricks, con, smith, sub } = yield* aConnectedContractor
      yield* acceptedReturn(con, juneLines(smith, bricks))
      const delivery = yield* StatementDelivery
      const [first, second] = yield* Effect.all([delivery.claim(10, LEASE), delivery.claim(10, LEASE)], {
        concurrency: 2
      })
      expect(first!.length + second!.length).toBe(1)
      const attempts = yield* Effect.forEach([...first!, ...second!], delivery.attempt)
      yield* delivery.record(attempts)
      expect(yield* (yield* ReceivedStatements).list({}).pipe(asMember(sub, SUBCONTRACTOR))).toHaveLength(1)
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect(
    "a deliverer whose lease ran out records nothing; the one that took the delivery over delivers it once",
    () =>
      Effect.gen(function* () {
        const { bricks, con, smith, sub, subcontractor } = yield* aConnectedContractor
        yield* acceptedReturn(con, juneLines(smith, bricks))
        const delivery = yield* StatementDelivery
        const slow = yield* delivery.claim(10, LEASE)
        expect(slow).toHaveLength(1)
        const slowAttempt = yield* Effect.forEach(slow, delivery.attempt)
        // Still leased to the slow one a moment before its lease runs out; then due again.
        yield* TestClock.adjust(Duration.subtract(LEASE, Duration.millis(1)))
        expect(yield* delivery.claim(10, LEASE)).toEqual([])
        yield* TestClock.adjust(Duration.millis(1))
        const taken = yield* delivery.claim(10, LEASE)
        expect(taken).toHaveLength(1)
        const takenAttempt = yield* Effect.forEach(taken, delivery.attempt)
        // Whichever records first, the slow one's record changes nothing.
        yield* delivery.record(slowAttempt)
        expect(yield* (yield* ReceivedStatements).list({}).pipe(asMember(sub, SUBCONTRACTOR))).toEqual([])
        yield* delivery.record(takenAttempt)
        yield* delivery.record(takenAttempt)
        yield* delivery.record(slowAttempt)
        const statements = yield* (yield* ReceivedStatements).list({}).pipe(asMember(sub, SUBCONTRACTOR))
        expect(statements.map((s) => s.statement.id)).toEqual([
          (takenAttempt[0]!.delivery as { statement: { id: string } }).statement.id
        ])
        expect(yield* receivedEvents(subcontractor.id)).toHaveLength(1)
      }).pipe(Effect.provide(statementsApp))
  )

  it.effect("a deliverer that dies before recording leaves the delivery to the next once its lease runs out", () =>
    Effect.gen(function* () {
      const { bricks, con, smith, sub, subcontractor } = yield* aConnectedContractor
      yield* acceptedReturn(con, juneLines(smith, bricks))
      const delivery = yield* StatementDelivery
      // Claimed and attempted, never recorded: the process died there.
      yield* Effect.forEach(yield* delivery.claim(10, LEASE), delivery.attempt)
      expect(yield* delivery.deliverDue(10, LEASE)).toBe(0)
      expect(yield* (yield* ReceivedStatements).list({}).pipe(asMember(sub, SUBCONTRACTOR))).toEqual([])
      yield* TestClock.adjust(LEASE)
      expect(yield* delivery.deliverDue(10, LEASE)).toBe(1)
      expect(yield* (yield* ReceivedStatements).list({}).pipe(asMember(sub, SUBCONTRACTOR))).toHaveLength(1)
      expect(yield* receivedEvents(subcontractor.id)).toHaveLength(1)
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect(
    "delivers nothing over a connection removed after the acceptance, and the contractor sees it undelivered",
    () =>
      Effect.gen(function* () {
        const { bricks, con, connection, smith, sub, subcontractor } = yield* aConnectedContractor
        const accepted = yield* acceptedReturn(con, juneLines(smith, bricks))
        yield* (yield* Connections).remove(connection.id).pipe(asMember(sub, SUBCONTRACTOR))
        expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(1)
        expect(yield* (yield* ReceivedStatements).list({}).pipe(asMember(sub, SUBCONTRACTOR))).toEqual([])
        expect(yield* receivedEvents(subcontractor.id)).toEqual([])
        const listed = yield* (yield* ReturnStatements).list(accepted.id).pipe(asMember(con, CONTRACTOR))
        expect(listed.map((s) => s.deliveredTo)).toEqual([null, null])
        // Dropped for good: connecting again later does not bring it back.
        expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(0)
      }).pipe(Effect.provide(statementsApp))
  )

  it.effect("queues no delivery for a line whose subcontractor is not connected yet", () =>
    Effect.gen(function* () {
      const { bricks, con, smith } = yield* aConnectedContractor
      // BRICKS is invited, not yet connected.
      yield* (yield* Connections)
        .create({ contact: bricks, direction: "In", email: "bricks@example.com" })
        .pipe(asMember(con, CONTRACTOR))
      const accepted = yield* acceptedReturn(con, juneLines(smith, bricks))
      const claimed = yield* (yield* StatementDelivery).claim(10, LEASE)
      const smithLine = accepted.lines.find((l) => l.contactCode === smith)
      expect(claimed.map((c) => c.contactId)).toEqual([smithLine!.contactId])
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect("delivers once to a subcontractor connected both ways", () =>
    Effect.gen(function* () {
      const { bricks, con, customer, smith, sub } = yield* aConnectedContractor
      const connections = yield* Connections
      // The subcontractor also shares its CIS details with the contractor, who names SMITH for it.
      yield* (yield* TenantSettings)
        .setCisDetails({ type: "SoleTrader", firstName: "John", lastName: "Smith", utr: "2234567890" })
        .pipe(asMember(sub, SUBCONTRACTOR))
      const shared = yield* connections
        .create({ contact: customer.code, direction: "Out", email: "office@lovelace.example" })
        .pipe(asMember(sub, SUBCONTRACTOR))
      yield* connections.setCounterparty(shared.connection.id, { contact: smith }).pipe(asMember(con, CONTRACTOR))
      expect(yield* connections.list({ contact: smith }).pipe(asMember(con, CONTRACTOR))).toHaveLength(2)
      yield* acceptedReturn(con, juneLines(smith, bricks))
      expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(1)
      expect(yield* (yield* ReceivedStatements).list({}).pipe(asMember(sub, SUBCONTRACTOR))).toHaveLength(1)
    }).pipe(Effect.provide(statementsApp))
  )
})
