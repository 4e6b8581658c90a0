import { Duration, Effect, Option } from "effect"
import { Contact } from "../contacts/Contact.js"
import { contactEvent } from "../contacts/ContactDraft.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { TaxAuthority, type TaxAuthorityFailure } from "../taxauthority/TaxAuthority.js"
import type { Acknowledgement, SentMessage } from "../taxauthority/Acknowledgement.js"
import { Transactor } from "../system/Transactor.js"
import { type ClaimedVerification, VerificationQueue, verificationReference } from "./VerificationQueue.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"
import type { VerificationAnswer, VerificationPoll, VerificationSent } from "../taxauthority/Verification.js"
import { answeredVerification } from "../taxauthority/VerificationRecord.js"

export type Settled = "Answered" | "Dropped" | "Postponed" | "Awaiting"

/**
 * What came of a leased request: the tax authority's answer (given under `answeredUnder`, to be
 * deleted there once recorded); not yet (sent, or polled, and to be polled at `pollAt`); or the
 * authority could not be reached.
 */
export type VerificationAttempt =
  | {
      readonly claimed: ClaimedVerification
      readonly answer: VerificationAnswer
      readonly answeredUnder: SentMessage | null
    }
  | { readonly claimed: ClaimedVerification; readonly pollAt: Date }
  | { readonly claimed: ClaimedVerification; readonly unavailable: TaxAuthorityFailure }
  /** The request was replaced, deleted with its contact, or taken over while it was sent. */
  | { readonly claimed: ClaimedVerification; readonly dropped: true }

/**
 * What a verification worker does: lease due requests and, outside any transaction, send each to
 * the tax authority once, recording its acknowledgement (correlation id and response endpoint) at
 * once; poll there, no sooner than the authority's interval, for as long as it takes; record each
 * answer on the contact (with contact.updated) in the same transaction that removes the request,
 * and only then delete the answer at the authority. A worker that dies on the way leaves the lease
 * to run out; the next one polls what was recorded, or finds the request at the authority, and
 * sends only a request the authority lacks. An authority that cannot be reached leaves the
 * request waiting, tried again later.
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

    const postpone = (claimed: ClaimedVerification, error: TaxAuthorityFailure) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const delay = retryDelay(claimed.attempts)
        yield* queue.postpone(claimed, new Date(now.getTime() + Duration.toMillis(delay)), error.message)
        yield* Effect.logWarning(
          `The tax authority could not be reached for ${claimed.contactCode}; trying again in ${Duration.format(delay)}: ${error.message}`
        )
        return "Postponed" as const
      })

    /** Deletes a recorded answer at its endpoint; one that could not be deleted is left (the authority drops it in time). */
    const deleteAnswer = (claimed: ClaimedVerification, sent: SentMessage) =>
      authority.deleteVerificationAnswer(sent).pipe(
        Effect.catchAll((failure) =>
          Effect.logWarning("The tax authority's answer to a verification could not be deleted").pipe(
            Effect.annotateLogs({
              contact: claimed.contactCode,
              correlationId: sent.correlationId,
              reason: failure.message
            })
          )
        )
      )

    /** Records, at once, where the authority answers; the request is polled once the authority's interval passed. */
    const recordSending = (claimed: ClaimedVerification, acknowledgement: Acknowledgement) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const recorded = yield* transaction(queue.recordSent(claimed, acknowledgement, now))
        return { recorded, pollAt: new Date(now.getTime() + acknowledgement.pollIntervalSeconds * 1000) }
      })

    const ofPoll = (claimed: ClaimedVerification, polled: SentMessage, poll: VerificationPoll) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        switch (poll._tag) {
          case "Matched":
          case "Refused":
            return { claimed, answer: poll, answeredUnder: polled }
          case "Pending":
            return { claimed, pollAt: new Date(now.getTime() + poll.retryAfterMs) }
          case "Resent": {
            const { recorded } = yield* recordSending(claimed, poll.acknowledgement)
            if (recorded && poll.acknowledgement.correlationId !== polled.correlationId && polled.endpoint !== null)
              yield* deleteAnswer(claimed, polled)
            return { claimed, pollAt: new Date(now.getTime() + poll.retryAfterMs) }
          }
        }
      })

    /**
     * One leased request: polled at its recorded endpoint when it was sent; else found at the
     * authority (sent by a worker that died before recording it) or sent now, and that recorded.
     */
    const attempt = (claimed: ClaimedVerification): Effect.Effect<VerificationAttempt> =>
      Effect.gen(function* () {
        const reference = verificationReference(claimed)
        if (claimed.sent !== null) {
          const sent = claimed.sent
          return yield* Effect.flatMap(authority.pollVerification(sent, reference, claimed.request), (poll) =>
            ofPoll(claimed, sent, poll)
          )
        }
        const found = yield* authority.findSentVerification(reference)
        const sent: VerificationSent = Option.isSome(found)
          ? { _tag: "Acknowledged", acknowledgement: found.value }
          : yield* authority.sendVerification(reference, claimed.request)
        if (sent._tag !== "Acknowledged") return { claimed, answer: sent, answeredUnder: null }
        const { pollAt, recorded } = yield* recordSending(claimed, sent.acknowledgement)
        if (!recorded) return { claimed, dropped: true } as const
        // An authority that may be asked at once (no interval) is asked at once.
        if (sent.acknowledgement.pollIntervalSeconds === 0)
          return yield* Effect.flatMap(
            authority.pollVerification(sent.acknowledgement, reference, claimed.request),
            (poll) => ofPoll(claimed, sent.acknowledgement, poll)
          )
        return { claimed, pollAt }
      }).pipe(
        Effect.catchAll((unavailable) => Effect.succeed({ claimed, unavailable })),
        Effect.withSpan("VerificationWork.attempt")
      )

    /** Records one attempt: the answer on the contact (then deleted at the authority), the request awaiting its answer, or postponed. */
    const settleAttempt = (done: VerificationAttempt): Effect.Effect<Settled> => {
      if ("answer" in done)
        return Effect.tap(recordAnswer(done.claimed, done.answer), (settled) =>
          settled === "Answered" && done.answeredUnder !== null
            ? deleteAnswer(done.claimed, done.answeredUnder)
            : Effect.void
        )
      if ("pollAt" in done) return Effect.as(queue.awaitAnswer(done.claimed, done.pollAt), "Awaiting" as const)
      if ("dropped" in done) return Effect.succeed("Dropped" as const)
      return postpone(done.claimed, done.unavailable)
    }

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
