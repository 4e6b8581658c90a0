import { Duration, Effect, Either, Option } from "effect"
import { Contact } from "../contacts/Contact.js"
import { heldReason, heldVerification, sendableCredentials } from "../credentials/CredentialsRequired.js"
import type { HmrcCredentials } from "../credentials/HmrcCredentials.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { contactEvent } from "../contacts/ContactDraft.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import {
  type CredentialsRefused,
  TaxAuthority,
  type TaxAuthorityFailure,
  type TaxAuthorityUnavailable
} from "../taxauthority/TaxAuthority.js"
import type { Acknowledgement, SentMessage } from "../taxauthority/Acknowledgement.js"
import { Transactor } from "../system/Transactor.js"
import { type ClaimedVerification, VerificationQueue, verificationReference } from "./VerificationQueue.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"
import type { VerificationAnswer, VerificationPoll, VerificationSent } from "../taxauthority/Verification.js"
import { answeredVerification } from "../taxauthority/VerificationRecord.js"

export type Settled = "Answered" | "Dropped" | "Postponed" | "Awaiting" | "Held"

/**
 * What came of a leased request: the tax authority's answer (given under `answeredUnder`, to be
 * deleted there once recorded); not yet (sent, or polled, and to be polled at `pollAt`); the
 * authority could not be reached; or it was not sent (or polled for), for want of credentials
 * HMRC takes (held for the credentials set at `heldFor`).
 */
export type VerificationAttempt =
  | {
      readonly claimed: ClaimedVerification
      readonly answer: VerificationAnswer
      readonly answeredUnder: SentMessage | null
    }
  | { readonly claimed: ClaimedVerification; readonly pollAt: Date }
  | { readonly claimed: ClaimedVerification; readonly unavailable: TaxAuthorityUnavailable }
  | { readonly claimed: ClaimedVerification; readonly held: string; readonly heldFor: Date | null }
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
 *
 * Each request goes with the tenant's HMRC credentials. Without usable ones (none, or refused by
 * HMRC), or when HMRC refuses them (at sending or at a poll), the request is held (keeping what
 * was recorded of its sending) and the contact stays NotVerified saying why, until the
 * credentials are replaced; a message HMRC took marks them Accepted.
 */
export class VerificationWork extends Effect.Service<VerificationWork>()("core/VerificationWork", {
  effect: Effect.gen(function* () {
    const queue = yield* VerificationQueue
    const authority = yield* TaxAuthority
    const contacts = yield* ContactRepo
    const outbox = yield* EventOutbox
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const credentialsRepo = yield* HmrcCredentialsRepo

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

    /**
     * Holds the request, and shows why on the contact (still NotVerified, with contact.updated),
     * unless the credentials were set or replaced since it was held for them: then it is due
     * again at once. The credentials are locked meanwhile, as a return's are (see ReturnFiling).
     */
    const hold = (claimed: ClaimedVerification, reason: string, heldFor: Date | null): Effect.Effect<Settled> =>
      transaction(
        Effect.gen(function* () {
          const now = yield* clock.now
          const current = yield* credentialsRepo.findForUpdate(claimed.tenantId)
          if (Option.getOrNull(Option.map(current, (c) => c.updatedAt))?.getTime() !== heldFor?.getTime()) {
            yield* queue.postpone(claimed, now, "The tenant's HMRC credentials changed while it was sent")
            return "Postponed" as const
          }
          if (!(yield* queue.hold(claimed, reason))) return "Dropped" as const
          const found = yield* contacts.findByCodeForUpdate(claimed.tenantId, claimed.contactCode)
          if (Option.isNone(found) || found.value.id !== claimed.contactId) return "Held" as const
          const waiting = new Contact({ ...found.value, verification: heldVerification(reason), updatedAt: now })
          yield* contacts.update(waiting)
          yield* outbox.record(claimed.tenantId, [contactEvent("contact.updated", waiting)])
          return "Held" as const
        })
      )

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

    /**
     * Records, at once, where the authority answers; the request is polled once the authority's
     * interval passed.
     */
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

    /** HMRC took (or answered) a message sent with the credentials: they are Accepted (written once). */
    const credentialsAccepted = (claimed: ClaimedVerification, stored: HmrcCredentials) =>
      stored.status === "Accepted"
        ? Effect.void
        : Effect.asVoid(transaction(credentialsRepo.recordStatus(claimed.tenantId, stored.updatedAt, "Accepted")))

    /**
     * One leased request, with the tenant's credentials: polled at its recorded endpoint when it
     * was sent; else found at the authority (sent by a worker that died before recording it) or
     * sent now, and that recorded. HMRC's refusal of the credentials is left to the caller.
     */
    const askWith = (
      claimed: ClaimedVerification,
      stored: HmrcCredentials
    ): Effect.Effect<VerificationAttempt, TaxAuthorityFailure> =>
      Effect.gen(function* () {
        const reference = verificationReference(claimed)
        const credentials = stored.credentials
        if (claimed.sent !== null) {
          const sent = claimed.sent
          return yield* Effect.flatMap(
            authority.pollVerification(sent, reference, claimed.request, credentials),
            (poll) => ofPoll(claimed, sent, poll)
          )
        }
        const found = yield* authority.findSentVerification(reference, credentials)
        const sent: VerificationSent = Option.isSome(found)
          ? { _tag: "Acknowledged", acknowledgement: found.value }
          : yield* authority.sendVerification(reference, claimed.request, credentials)
        yield* credentialsAccepted(claimed, stored)
        if (sent._tag !== "Acknowledged") return { claimed, answer: sent, answeredUnder: null }
        const { pollAt, recorded } = yield* recordSending(claimed, sent.acknowledgement)
        if (!recorded) return { claimed, dropped: true } as const
        // An authority that may be asked at once (no interval) is asked at once.
        if (sent.acknowledgement.pollIntervalSeconds === 0)
          return yield* Effect.flatMap(
            authority.pollVerification(sent.acknowledgement, reference, claimed.request, credentials),
            (poll) => ofPoll(claimed, sent.acknowledgement, poll)
          )
        return { claimed, pollAt }
      })

    /** HMRC refused the credentials: they are Refused (unless replaced meanwhile), and the request held. */
    const refused = (claimed: ClaimedVerification, stored: HmrcCredentials, refusal: CredentialsRefused) =>
      Effect.as(
        Effect.zipRight(
          Effect.logWarning("HMRC refused a tenant's Government Gateway credentials; its verifications wait").pipe(
            Effect.annotateLogs({ tenant: claimed.tenantId, reason: refusal.message })
          ),
          transaction(credentialsRepo.recordStatus(claimed.tenantId, stored.updatedAt, "Refused"))
        ),
        { claimed, held: heldReason(refusal.message), heldFor: stored.updatedAt }
      )

    /** One leased request with the tenant's credentials (see askWith); what came of it, to be recorded. */
    const attempt = (claimed: ClaimedVerification): Effect.Effect<VerificationAttempt> =>
      Effect.flatMap(credentialsRepo.find(claimed.tenantId), (found) =>
        Either.match(sendableCredentials(found), {
          onLeft: (held) =>
            Effect.succeed<VerificationAttempt>({
              claimed,
              held,
              heldFor: Option.getOrNull(Option.map(found, (f) => f.updatedAt))
            }),
          onRight: (stored) =>
            askWith(claimed, stored).pipe(
              Effect.catchTags({
                TaxAuthorityUnavailable: (unavailable) => Effect.succeed<VerificationAttempt>({ claimed, unavailable }),
                CredentialsRefused: (refusal) => refused(claimed, stored, refusal)
              })
            )
        })
      ).pipe(Effect.withSpan("VerificationWork.attempt"))

    /**
     * Records one attempt: the answer on the contact (then deleted at the authority), the request
     * awaiting its answer, postponed, or held.
     */
    const settleAttempt = (done: VerificationAttempt): Effect.Effect<Settled> => {
      if ("answer" in done)
        return Effect.tap(recordAnswer(done.claimed, done.answer), (settled) =>
          settled === "Answered" && done.answeredUnder !== null
            ? deleteAnswer(done.claimed, done.answeredUnder)
            : Effect.void
        )
      if ("pollAt" in done) return Effect.as(queue.awaitAnswer(done.claimed, done.pollAt), "Awaiting" as const)
      if ("dropped" in done) return Effect.succeed("Dropped" as const)
      if ("held" in done) return hold(done.claimed, done.held, done.heldFor)
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
