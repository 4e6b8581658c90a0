import { Effect, Option } from "effect"
import { normaliseContactCode } from "../contacts/ContactCode.js"
import type { Email } from "../Email.js"
import { NotFound } from "../Errors.js"
import { MailOutbox } from "../mail/MailOutbox.js"
import type { CurrentTenant } from "../tenants/CurrentTenant.js"
import type { TenantCode } from "../tenants/Tenant.js"
import { cisStatement, issuesStatements, type StatementFile, statementFileName } from "./CisStatement.js"
import type { ReturnLine } from "./MonthlyReturn.js"
import { MonthlyReturns } from "./MonthlyReturns.js"
import { ReturnStatementRepo } from "./ReturnStatementRepo.js"
import { StatementRenderer } from "./StatementRenderer.js"

/** The statement of one line of an accepted return, and how it went out. */
export interface ReturnStatement {
  /** The tax month, by its last day. */
  readonly periodEnd: string
  /** The subcontractor and the amounts, as on the return. */
  readonly line: ReturnLine
  /** Where and when the mail carrying it was handed to the SMTP server; null until then (or when none was sent). */
  readonly emailedTo: Email | null
  readonly emailedAt: Date | null
  /** The subcontractor's tenant, once the statement was delivered into it. */
  readonly deliveredTo: TenantCode | null
}

/**
 * The payment and deduction statements of a tenant's accepted returns: one per line, how each
 * went out (by mail, into a connected subcontractor's tenant), and each one's PDF.
 */
export class ReturnStatements extends Effect.Service<ReturnStatements>()("core/ReturnStatements", {
  dependencies: [MonthlyReturns.Default],
  effect: Effect.gen(function* () {
    const returns = yield* MonthlyReturns
    const repo = yield* ReturnStatementRepo
    const mail = yield* MailOutbox
    const renderer = yield* StatementRenderer

    /** One entry per line of the return, in its order; none for a return not Accepted. */
    const list = (monthlyReturnId: string): Effect.Effect<ReadonlyArray<ReturnStatement>, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const r = yield* returns.get(monthlyReturnId)
        if (!issuesStatements(r)) return []
        const sendings = new Map((yield* repo.list(r.tenantId, r.id)).map((s) => [s.contactId, s] as const))
        const mailIds = [...sendings.values()].flatMap((s) => (s.mailId === null ? [] : [s.mailId]))
        const sent = new Map((yield* mail.sentOf(r.tenantId, mailIds)).map((m) => [m.id, m] as const))
        return r.lines.map((line): ReturnStatement => {
          const sending = sendings.get(line.contactId)
          const mailed = sending?.mailId ? sent.get(sending.mailId) : undefined
          return {
            periodEnd: r.periodEnd,
            line,
            emailedTo: mailed?.to ?? null,
            emailedAt: mailed?.sentAt ?? null,
            deliveredTo: sending?.delivery?.deliveredTo ?? null
          }
        })
      }).pipe(Effect.withSpan("ReturnStatements.list"))

    /**
     * The PDF of the statement of the subcontractor `contact` (its code) on the return: the one
     * that was mailed or delivered, else drawn now from the return. Not found for a contact not on
     * the return, or a return not Accepted.
     */
    const pdf = (monthlyReturnId: string, contact: string): Effect.Effect<StatementFile, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const r = yield* returns.get(monthlyReturnId)
        const line = issuesStatements(r)
          ? r.lines.find((l) => l.contactCode === normaliseContactCode(contact))
          : undefined
        if (line === undefined)
          return yield* new NotFound({
            detail: issuesStatements(r)
              ? `${contact} is not a subcontractor on the return for the tax month ending ${r.periodEnd}.`
              : `The return for the tax month ending ${r.periodEnd} is ${r.status}: only an accepted return has statements.`
          })
        const statement = cisStatement(r, line)
        const kept = yield* repo.pdf(r.tenantId, r.id, line.contactId)
        const content = Option.isSome(kept) ? kept.value : yield* renderer.cisStatement(statement)
        return { filename: statementFileName(statement), content }
      }).pipe(Effect.withSpan("ReturnStatements.pdf"))

    return { list, pdf } as const
  })
}) {}
