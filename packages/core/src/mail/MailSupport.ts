import { Effect } from "effect"
import { Refused, ValidationFailed } from "../Errors.js"
import { isUuid, MailId } from "../Ids.js"
import type { MailSummary } from "./OutgoingMail.js"
import type { MailStatus } from "./TenantMail.js"
import { Clock } from "../system/Clock.js"
import { MailOutbox } from "./MailOutbox.js"

export const MAX_MAIL_LIST = 500

/** The mail outbox for support staff (the admin CLI): what is queued, sent or failed, and retries. */
export class MailSupport extends Effect.Service<MailSupport>()("core/MailSupport", {
  effect: Effect.gen(function* () {
    const outbox = yield* MailOutbox
    const clock = yield* Clock

    /** Newest first, of every tenant. */
    const list = (
      status: MailStatus | null,
      limit: number
    ): Effect.Effect<ReadonlyArray<MailSummary>, ValidationFailed> =>
      Number.isInteger(limit) && limit >= 1 && limit <= MAX_MAIL_LIST
        ? outbox.list({ status, limit })
        : Effect.fail(ValidationFailed.one("limit", `Must be a whole number from 1 to ${MAX_MAIL_LIST}`))

    /** Queues a Failed mail again, due at once, with a fresh set of attempts. */
    const retry = (id: string): Effect.Effect<void, Refused> =>
      Effect.gen(function* () {
        const queued = isUuid(id) ? yield* outbox.retry(MailId.make(id), yield* clock.now) : false
        if (!queued) {
          return yield* new Refused({
            detail: `There is no failed mail with the id ${id}: only a Failed mail can be retried.`
          })
        }
      })

    return { list, retry } as const
  })
}) {}
