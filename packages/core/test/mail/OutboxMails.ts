import { Effect } from "effect"
import { MailOutbox } from "../../src/mail/MailOutbox.js"

/** Every mail the outbox holds due, oldest first, as a sender would claim it (so claimed once). */
export const outboxMails = Effect.flatMap(MailOutbox, (outbox) =>
  outbox.claimDue(new Date("2100-01-01"), new Date("2100-01-02"), 100)
).pipe(Effect.map((claimed) => claimed.map((c) => c.mail)))
