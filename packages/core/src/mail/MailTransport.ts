import { Context, type Effect } from "effect"
import type { MailSendOutcome } from "./MailSchedule.js"
import type { OutgoingMail } from "./OutgoingMail.js"

/** Hands a mail to the outgoing mail server. Never fails: every failure is an outcome. */
export class MailTransport extends Context.Tag("core/MailTransport")<
  MailTransport,
  { readonly send: (mail: OutgoingMail) => Effect.Effect<MailSendOutcome> }
>() {}
