import { Duration, Effect, Option } from "effect"
import { Contact } from "../contacts/Contact.js"
import { contactEvent } from "../contacts/ContactDraft.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { TaxAuthority, type TaxAuthorityUnavailable } from "../taxauthority/TaxAuthority.js"
import { Transactor } from "../system/Transactor.js"
import { type ClaimedVerification, VerificationQueue } from "./VerificationQueue.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"
import type { VerificationAnswer } from "../taxauthority/Verification.js"
import { answeredVerification } from "../taxauthority/VerificationRecord.js"

export type Settled = "Answered" | "Dropped" | "Postponed"

/** What the tax authority said about a leased request, or that it could not be reached. */
export type VerificationAttempt =
  | { readonly claimed: ClaimedVerification; readonly answer: VerificationAnswer }
  | { readonly claimed: ClaimedVerification; readonly unavailable: TaxAuthorityUnavailable }

/**
 * What a verification worker does: lease due requests, ask the tax authority about each outside
 * any transaction, and record each answer on the contact (with contact.updated) in the same
 * transaction that removes the request. A worker that dies in between leaves the lease to run
 * out, and the request is sent again (at least once). An authority that cannot be reached
 * leaves the request waiting, tried again later.
 */
export class VerificationWork extends Effect.Service<VerificationWork>()("core/VerificationWork", {
  effect: Effect.gen(function* () {
    const queue = yield* VerificationQueue
    const authority = yield* TaxAuthority
    const contacts = yield* ContactRepo
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock

    /** Leases up to `limit` due requests for `lease`. */
    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) => queue.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit))

    /**
     * Records the answer, unless the request was replaced, deleted with its contact, or taken
     * over meanwhile (then the newer request's answer is the one that counts).
     */
    const recordAnswer = (claimed: ClaimedVerification, answer: VerificationAnswer): Effect.Effect<Settled> =>
      transaction(
        Effect.gen(function* () {
          if (!(yield* queue.complete(claimed))) return "Dropped" as const
          const found = yield* contacts.findByCodeForUpdate(claimed.tenantId, claimed.contactCode)
          if (Option.isNone(found) || found.value.id !== claimed.contactId) return "Dropped" as const
          const now = yield* clock.now
          const answered = new Contact({
            ...found.value,
            verification: answeredVerification(answer, now),
            updatedAt: now
          })
          yield* contacts.update(answered)
          yield* outbox.record(claimed.tenantId, [contactEvent("contact.updated", answered)])
          return "Answered" as const
        })
      )

    const postpone = (claimed: ClaimedVerification, error: TaxAuthorityUnavailable) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const delay = retryDelay(claimed.attempts)
        yield* queue.postpone(claimed, new Date(now.getTime() + Duration.toMillis(delay)), error.message)
        yield* Effect.logWarning(
          `The tax authority could not be reached for ${claimed.contactCode}; trying again in ${Duration.format(delay)}: ${error.message}`
        )
        return "Postponed" as const
      })

    /** Asks the tax authority about one leased request; what it answered, to be recorded. */
    const attempt = (claimed: ClaimedVerification): Effect.Effect<VerificationAttempt> =>
      authority.verify(claimed.request).pipe(
        Effect.map((answer) => ({ claimed, answer })),
        Effect.catchAll((unavailable) => Effect.succeed({ claimed, unavailable })),
        Effect.withSpan("VerificationWork.attempt")
      )

    /** Records one attempt: the answer on the contact, or the request postponed. */
    const settleAttempt = (done: VerificationAttempt): Effect.Effect<Settled> =>
      "answer" in done ? recordAnswer(done.claimed, done.answer) : postpone(done.claimed, done.unavailable)

    /** Records attempts, each in its own transaction. */
    const recordAll = (attempts: ReadonlyArray<VerificationAttempt>) =>
      Effect.forEach(attempts, settleAttempt, { discard: true })

    /** Asks about one leased request and records it. */
    const settle = (claimed: ClaimedVerification): Effect.Effect<Settled> =>
      Effect.flatMap(attempt(claimed), settleAttempt)

    /** Claims up to `limit` due requests and settles them all at once; how many there were. */
    const workDue = (limit: number, lease: Duration.Duration): Effect.Effect<number> =>
      claim(limit, lease).pipe(
        Effect.flatMap((claimed) =>
          Effect.forEach(claimed, settle, { concurrency: "unbounded", discard: true }).pipe(Effect.as(claimed.length))
        )
      )

    return { claim, attempt, record: recordAll, settle, workDue } as const
  })
}) {}
