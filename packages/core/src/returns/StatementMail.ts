import { Effect, Option } from "effect"
import type { Email } from "../Email.js"
import type { MailId } from "../Ids.js"
import type { MailAttachment } from "../mail/MailAttachment.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { StatementRenderer } from "./StatementRenderer.js"
import { EmailSettingsRepo } from "../mail/EmailSettingsRepo.js"
import { TenantMail } from "../mail/TenantMail.js"
import { cisStatement, statementFileName } from "./CisStatement.js"
import type { MonthlyReturn, ReturnLine } from "./MonthlyReturn.js"

/** A statement ready to go: its line, to whom, and the PDF. */
export interface PreparedStatement {
  readonly line: ReturnLine
  readonly to: Email
  readonly attachment: MailAttachment
}

/** A statement written to the mail outbox, with the PDF it carries. */
export interface QueuedStatement {
  readonly line: ReturnLine
  readonly mailId: MailId
  readonly pdf: Uint8Array
}

/**
 * Payment and deduction statements for an accepted return, when the tenant emails them
 * automatically: one per subcontractor on it that has an email address now. `prepare` reads and
 * renders (outside any transaction); `queue` writes the mails, in the transaction that records
 * the acceptance.
 */
export class StatementMail extends Effect.Service<StatementMail>()("core/StatementMail", {
  effect: Effect.gen(function* () {
    const settings = yield* EmailSettingsRepo
    const contacts = yield* ContactRepo
    const renderer = yield* StatementRenderer
    const mail = yield* TenantMail

    const prepare = (r: MonthlyReturn): Effect.Effect<ReadonlyArray<PreparedStatement>> =>
      Effect.gen(function* () {
        const auto = Option.exists(yield* settings.getSettings(r.tenantId), (s) => s.autoEmailStatements)
        if (!auto) return []
        const found = yield* contacts.findByCodes(
          r.tenantId,
          r.lines.map((line) => line.contactCode)
        )
        const emails = new Map(found.flatMap((c) => (c.email === null ? [] : [[c.code, c.email] as const])))
        const lines = r.lines.filter((line) => emails.has(line.contactCode))
        return yield* Effect.forEach(lines, (line) => {
          const statement = cisStatement(r, line)
          return Effect.map(renderer.cisStatement(statement), (content) => ({
            line,
            to: emails.get(line.contactCode)!,
            attachment: { filename: statementFileName(statement), contentType: "application/pdf", content }
          }))
        })
      }).pipe(Effect.withSpan("StatementMail.prepare"))

    const queue = (
      r: MonthlyReturn,
      statements: ReadonlyArray<PreparedStatement>
    ): Effect.Effect<ReadonlyArray<QueuedStatement>> =>
      Effect.forEach(statements, ({ attachment, line, to }) =>
        Effect.map(
          mail.queue({
            tenantId: r.tenantId,
            type: "CisStatement",
            to,
            values: {
              tenantName: r.contractor.name,
              contactName: line.name,
              taxMonthEnd: r.periodEnd,
              grossAmount: line.grossAmount,
              materials: line.materials,
              deducted: line.deducted
            },
            actingUserEmail: null,
            attachments: [attachment]
          }),
          (queued) => ({ line, mailId: queued.id, pdf: attachment.content })
        )
      )

    return { prepare, queue } as const
  })
}) {}
