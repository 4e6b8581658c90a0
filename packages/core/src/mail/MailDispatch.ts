import { Duration, Effect } from "effect"
import { afterMailAttempt } from "./MailSchedule.js"
import { Clock } from "../system/Clock.js"
import { type ClaimedMail, MailOutbox, type RecordedMailAttempt } from "./MailOutbox.js"
import { MailTransport } from "./MailTransport.js"

/**
 * What a mail sender does: lease due mail, hand each to the SMTP server, and record how it went.
 * A sender that dies between the two leaves the lease to run out, and the mail is sent again
 * (at least once); recording right after each answer keeps that window short.
 */
export class MailDispatch extends Effect.Service<MailDispatch>()("core/MailDispatch", {
  effect: Effect.gen(function* () {
    const outbox = yield* MailOutbox
    const transport = yield* MailTransport
    const clock = yield* Clock

    /** Leases up to `limit` due mails for `lease`. */
    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) =>
        outbox.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit)
      )

    /** One attempt at a leased mail, and where it leaves the mail, to be recorded. */
    const attempt = (claimed: ClaimedMail): Effect.Effect<RecordedMailAttempt> =>
      Effect.gen(function* () {
        const outcome = yield* transport.send(claimed.mail)
        const at = yield* clock.now
        return {
          mail: claimed.mail,
          leaseToken: claimed.leaseToken,
          progress: afterMailAttempt(claimed.attempts + 1, at, outcome)
        }
      })

    const record = (attempts: ReadonlyArray<RecordedMailAttempt>) =>
      attempts.length === 0 ? Effect.void : outbox.record(attempts)

    /** Claims up to `limit` due mails, sends them all at once, and records them; how many there were. */
    const sendDue = (limit: number, lease: Duration.Duration): Effect.Effect<number> =>
      claim(limit, lease).pipe(
        Effect.flatMap((claimed) => Effect.forEach(claimed, attempt, { concurrency: "unbounded" })),
        Effect.tap(record),
        Effect.map((attempts) => attempts.length)
      )

    return { claim, attempt, record, sendDue } as const
  })
}) {}
