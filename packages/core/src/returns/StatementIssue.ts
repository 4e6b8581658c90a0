import { Effect } from "effect"
import { type Connection, contractorAndSubcontractor } from "../connections/Connection.js"
import { ConnectionRepo } from "../connections/ConnectionRepo.js"
import type { ContactId, TenantId } from "../Ids.js"
import { issuesStatements } from "./CisStatement.js"
import type { MonthlyReturn } from "./MonthlyReturn.js"
import { type IssuedStatement, ReturnStatementRepo } from "./ReturnStatementRepo.js"
import { type PreparedStatement, StatementMail } from "./StatementMail.js"

/** What an accepted return's statements need before its acceptance is recorded: the mails, rendered. */
export interface PreparedStatements {
  readonly mails: ReadonlyArray<PreparedStatement>
}

/**
 * The connection over which the contractor tenant's statement of `contactId` is delivered: the
 * earliest connected one in which that contact is the contractor's side (a subcontractor that
 * both invited and was invited gets its statement once).
 */
const deliveryConnection = (
  connections: ReadonlyArray<Connection>,
  tenantId: TenantId,
  contactId: ContactId
): Connection | undefined =>
  connections.find((connection) => {
    const sides = contractorAndSubcontractor(connection)
    return sides !== undefined && sides.contractor.tenantId === tenantId && sides.contractor.contactId === contactId
  })

/**
 * What becomes of an accepted return's payment and deduction statements: mailed to the
 * subcontractors with an email address when the tenant emails them automatically (StatementMail),
 * and delivered into the tenant of each subcontractor the contractor is connected to. `prepare`
 * reads and renders outside any transaction; `record`, in the transaction that records the
 * acceptance, queues the mails and records each statement that goes out, a delivery being its
 * own outbox entry (see StatementDelivery), so that both exist exactly when the acceptance does.
 */
export class StatementIssue extends Effect.Service<StatementIssue>()("core/StatementIssue", {
  dependencies: [StatementMail.Default],
  effect: Effect.gen(function* () {
    const mail = yield* StatementMail
    const connections = yield* ConnectionRepo
    const statements = yield* ReturnStatementRepo

    const prepare = (r: MonthlyReturn): Effect.Effect<PreparedStatements> =>
      issuesStatements(r) ? Effect.map(mail.prepare(r), (mails) => ({ mails })) : Effect.succeed({ mails: [] })

    const record = (r: MonthlyReturn, prepared: PreparedStatements): Effect.Effect<void> =>
      Effect.gen(function* () {
        const issuedAt = r.acceptedAt
        if (!issuesStatements(r) || issuedAt === null) return
        const mailed = new Map((yield* mail.queue(r, prepared.mails)).map((q) => [q.line.contactId, q] as const))
        const connected = yield* connections.listConnected(
          r.tenantId,
          r.lines.map((line) => line.contactId)
        )
        const issued = r.lines.flatMap((line): ReadonlyArray<IssuedStatement> => {
          const queued = mailed.get(line.contactId)
          const via = deliveryConnection(connected, r.tenantId, line.contactId)
          if (queued === undefined && via === undefined) return []
          return [
            {
              tenantId: r.tenantId,
              monthlyReturnId: r.id,
              contactId: line.contactId,
              contactCode: line.contactCode,
              pdf: queued?.pdf ?? null,
              mailId: queued?.mailId ?? null,
              deliverVia: via?.id ?? null,
              issuedAt
            }
          ]
        })
        if (issued.length > 0) yield* statements.insert(issued)
      }).pipe(Effect.withSpan("StatementIssue.record"))

    return { prepare, record } as const
  })
}) {}
