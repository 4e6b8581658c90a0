import { Effect, Option } from "effect"
import type { Email } from "../Email.js"
import type { MailAttachment } from "../mail/MailAttachment.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { StatementRenderer } from "./StatementRenderer.js"
import { EmailSettingsRepo } from "../mail/EmailSettingsRepo.js"
import { TenantMail } from "../mail/TenantMail.js"
import { cisStatement, statementFileName } from "./CisStatement.js"
import type { MonthlyReturn } from "./MonthlyReturn.js"

/** A statement ready to go: to whom, the template's values and the PDF. */
interface PreparedStatement {
  readonly to: Email
  readonly contactName: string
  readonly grossAmount: number
  readonly materials: number
  readonly deducted: number
  readonly attachment: MailAttachment
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
            to: emails.get(line.contactCode)!,
            contactName: line.name,
            grossAmount: line.grossAmount,
            materials: line.materials,
            deducted: line.deducted,
            attachment: { filename: statementFileName(statement), contentType: "application/pdf", content }
          }))
        })
      }).pipe(Effect.withSpan("StatementMail.prepare"))

    const queue = (r: MonthlyReturn, statements: ReadonlyArray<PreparedStatement>) =>
      Effect.forEach(
        statements,
        (s) =>
          mail.queue({
            tenantId: r.tenantId,
            type: "CisStatement",
            to: s.to,
            values: {
              tenantName: r.contractor.name,
              contactName: s.contactName,
              taxMonthEnd: r.periodEnd,
              grossAmount: s.grossAmount,
              materials: s.materials,
              deducted: s.deducted
            },
            actingUserEmail: null,
            attachments: [s.attachment]
          }),
        { discard: true }
      )

    return { prepare, queue } as const
  })
}) {}
