import { MailStatus } from "@cisbook/core/mail/TenantMail"
import { MailSupport } from "@cisbook/core/mail/MailSupport"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { admin } from "../Admin.js"
import { MailSupportLive } from "../AdminUseCases.js"
import { table } from "../Table.js"

const instant = (at: Date | null) => at?.toISOString() ?? ""

const list = Command.make(
  "list",
  {
    status: Options.choice("status", MailStatus.literals).pipe(
      Options.optional,
      Options.withDescription("Only mail in this status")
    ),
    limit: Options.integer("limit").pipe(Options.withDefault(50), Options.withDescription("At most this many (1-500)"))
  },
  ({ limit, status }) =>
    admin(
      [MailSupportLive],
      Effect.gen(function* () {
        const mails = yield* (yield* MailSupport).list(Option.getOrNull(status), limit)
        if (mails.length === 0) return yield* Console.log("No mail.")
        yield* Console.log(
          table(
            ["ID", "TENANT", "TYPE", "TO", "STATUS", "ATTEMPTS", "CREATED", "SENT", "NEXT ATTEMPT", "LAST ERROR"],
            mails.map((m) => [
              m.id,
              m.tenantId ?? "(the service)",
              m.type,
              m.to,
              m.status,
              String(m.attempts),
              instant(m.createdAt),
              instant(m.sentAt),
              instant(m.nextAttemptAt),
              m.lastError ?? ""
            ])
          )
        )
        yield* Console.log(`${mails.length} mail${mails.length === 1 ? "" : "s"}, newest first.`)
      })
    )
).pipe(
  Command.withDescription("List the mail outbox (every tenant's, and the service's own billing notices), newest first")
)

const retry = Command.make(
  "retry",
  { id: Options.text("id").pipe(Options.withDescription("The mail's id")) },
  ({ id }) =>
    admin(
      [MailSupportLive],
      Effect.gen(function* () {
        yield* (yield* MailSupport).retry(id)
        yield* Console.log(`Queued mail ${id} again; a running server's mail sender sends it.`)
      })
    )
).pipe(Command.withDescription("Queue a Failed mail again, with a fresh set of attempts"))

export const MailCommand = Command.make("mail").pipe(
  Command.withDescription("The mail outbox: list it, retry a failed mail"),
  Command.withSubcommands([list, retry])
)
