import { Duration, Effect, Option } from "effect"
import { contractorAndSubcontractor } from "../connections/Connection.js"
import { ConnectionRepo } from "../connections/ConnectionRepo.js"
import type { NewEvent } from "../events/Event.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { ReceivedStatementId, type TenantId } from "../Ids.js"
import { SalesInvoiceRepo } from "../invoices/SalesInvoiceRepo.js"
import { cisStatement } from "../returns/CisStatement.js"
import { MonthlyReturnRepo } from "../returns/MonthlyReturnRepo.js"
import { type ClaimedDelivery, ReturnStatementRepo } from "../returns/ReturnStatementRepo.js"
import { StatementRenderer } from "../returns/StatementRenderer.js"
import { Clock } from "../system/Clock.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { Transactor } from "../system/Transactor.js"
import type { TenantCode } from "../tenants/Tenant.js"
import { ReceivedStatement, StatementContact, StatementContractor, StatementSource } from "./ReceivedStatement.js"
import { ReceivedStatementRepo } from "./ReceivedStatementRepo.js"
import { receivedStatementEventJson } from "./ReceivedStatementEventData.js"
import { reconciled } from "./Reconciliation.js"

/** A leased delivery and what is to come of it, to be recorded. */
export interface DeliveryAttempt {
  readonly claimed: ClaimedDelivery
  readonly delivery:
    | {
        readonly _tag: "Deliver"
        /** The subcontractor's tenant. */
        readonly to: { readonly tenantId: TenantId; readonly tenantCode: TenantCode }
        readonly statement: ReceivedStatement
        readonly pdf: Uint8Array
        /** `cis-statement.received` for the receiving tenant's webhooks. */
        readonly event: NewEvent
      }
    /** The connection no longer joins the contractor's contact to a subcontractor: nothing is delivered. */
    | { readonly _tag: "Drop"; readonly reason: string }
}

/**
 * What a statement deliverer does: lease the Due deliveries that accepted returns queued, make
 * each one's statement for the subcontractor's tenant (outside any transaction), and record it
 * there, with its `cis-statement.received` event, in the transaction that marks the delivery
 * done. A deliverer that dies on the way leaves the lease to run out and another delivers it;
 * one whose lease was taken over records nothing; and the receiving tenant holds at most one
 * statement per return line (ReceivedStatementRepo), so each line arrives exactly once.
 */
export class StatementDelivery extends Effect.Service<StatementDelivery>()("core/StatementDelivery", {
  effect: Effect.gen(function* () {
    const deliveries = yield* ReturnStatementRepo
    const returns = yield* MonthlyReturnRepo
    const connections = yield* ConnectionRepo
    const received = yield* ReceivedStatementRepo
    const invoices = yield* SalesInvoiceRepo
    const renderer = yield* StatementRenderer
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator

    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) =>
        deliveries.claimDeliveries(now, new Date(now.getTime() + Duration.toMillis(lease)), limit)
      )

    const drop = (claimed: ClaimedDelivery, reason: string): Effect.Effect<DeliveryAttempt> =>
      Effect.as(
        Effect.logWarning("A statement was not delivered to a connected subcontractor").pipe(
          Effect.annotateLogs({ monthlyReturn: claimed.monthlyReturnId, contact: claimed.contactId, reason })
        ),
        { claimed, delivery: { _tag: "Drop", reason } }
      )

    /**
     * One leased delivery: the statement of the return's line, for the tenant on the other side of
     * the connection, as long as the connection still joins the two (else it is dropped), with the
     * PDF that went out by mail (or drawn now) and the event, reconciled as of now.
     */
    const attempt = (claimed: ClaimedDelivery): Effect.Effect<DeliveryAttempt> =>
      Effect.gen(function* () {
        const found = yield* returns.find(claimed.tenantId, claimed.monthlyReturnId)
        const r = Option.getOrUndefined(found)
        const line = r?.lines.find((l) => l.contactId === claimed.contactId)
        if (r === undefined || line === undefined) return yield* drop(claimed, "The return line is not there")
        const connection = yield* connections.findVisible(
          { tenantId: claimed.tenantId, emails: [] },
          claimed.connectionId
        )
        const sides = Option.getOrUndefined(Option.map(connection, contractorAndSubcontractor))
        if (
          sides === undefined ||
          sides.contractor.tenantId !== claimed.tenantId ||
          sides.contractor.contactId !== claimed.contactId
        )
          return yield* drop(claimed, "The connection was removed after the return was accepted")
        const kept = yield* deliveries.pdf(claimed.tenantId, claimed.monthlyReturnId, claimed.contactId)
        const pdf = Option.isSome(kept) ? kept.value : yield* renderer.cisStatement(cisStatement(r, line))
        const statement = new ReceivedStatement({
          id: ReceivedStatementId.make(yield* ids.uuid),
          tenantId: sides.subcontractor.tenantId,
          source: new StatementSource({
            tenantId: claimed.tenantId,
            monthlyReturnId: claimed.monthlyReturnId,
            contactId: claimed.contactId
          }),
          contractor: new StatementContractor({
            tenantCode: sides.contractor.tenantCode,
            name: sides.contractor.tenantName,
            employerReference: r.contractor.scheme?.employerReference ?? null
          }),
          contact: new StatementContact({ id: sides.subcontractor.contactId, code: sides.subcontractor.contactCode }),
          periodEnd: r.periodEnd,
          taxTreatment: line.taxTreatment,
          verificationNumber: line.verificationNumber,
          grossAmount: line.grossAmount,
          materials: line.materials,
          deducted: line.deducted,
          receivedAt: yield* clock.now
        })
        const [withReconciliation] = yield* reconciled(invoices, statement.tenantId, [statement])
        return {
          claimed,
          delivery: {
            _tag: "Deliver",
            to: { tenantId: sides.subcontractor.tenantId, tenantCode: sides.subcontractor.tenantCode },
            statement,
            pdf,
            event: { type: "cis-statement.received", data: receivedStatementEventJson(withReconciliation!) }
          }
        } satisfies DeliveryAttempt
      }).pipe(Effect.withSpan("StatementDelivery.attempt"))

    /**
     * Records one delivery in one transaction: the delivery done (only while the lease is still
     * this one), and the statement and its event in the receiving tenant.
     */
    const recordOne = ({ claimed, delivery }: DeliveryAttempt) =>
      transaction(
        Effect.gen(function* () {
          const at = yield* clock.now
          if (delivery._tag === "Drop") return yield* deliveries.recordDelivery(claimed, { _tag: "Dropped", at })
          const { event, pdf, statement, to } = delivery
          if (!(yield* deliveries.recordDelivery(claimed, { _tag: "Delivered", to, at, pdf }))) return false
          if (yield* received.insert(statement, pdf)) yield* outbox.record(statement.tenantId, [event])
          return true
        })
      )

    const record = (done: ReadonlyArray<DeliveryAttempt>) => Effect.forEach(done, recordOne, { discard: true })

    /** Claims up to `limit` due deliveries, makes them all at once, and records each; how many there were. */
    const deliverDue = (limit: number, lease: Duration.Duration): Effect.Effect<number> =>
      claim(limit, lease).pipe(
        Effect.flatMap((claimed) => Effect.forEach(claimed, attempt, { concurrency: "unbounded" })),
        Effect.tap(record),
        Effect.map((attempts) => attempts.length)
      )

    return { claim, attempt, record, deliverDue } as const
  })
}) {}
