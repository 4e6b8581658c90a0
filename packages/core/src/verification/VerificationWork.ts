import { Duration, Effect, Either, Option } from "effect"
import { refusedCredentialsSetAt } from "../credentials/RefusedCredentials.js"
import { Contact } from "../contacts/Contact.js"
import { heldReason, heldVerification, sendableCredentials } from "../credentials/CredentialsRequired.js"
import type { HmrcCredentials } from "../credentials/HmrcCredentials.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { contactEvent } from "../contacts/ContactDraft.js"
import { Clock } from "../system/Clock.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { type CredentialsRefused, TaxAuthority, type TaxAuthorityUnavailable } from "../taxauthority/TaxAuthority.js"
import type { SentMessage } from "../taxauthority/Acknowledgement.js"
import { Transactor } from "../system/Transactor.js"
import {
  type ClaimedVerification,
  type HeldFor,
  VerificationQueue,
  verificationReference
} from "./VerificationQueue.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"
import type { VerificationAnswer, VerificationPoll } from "../taxauthority/Verification.js"
import { afterUnknown, type UnknownAnswer } from "../taxauthority/UnknownAnswer.js"
import { answeredVerification } from "../taxauthority/VerificationRecord.js"

export type Settled = "Answered" | "Dropped" | "Postponed" | "Awaiting" | "Held"

/** A recorded sending, as polled. */
type Sending = NonNullable<ClaimedVerification["sent"]>

/** Why a verification waits when HMRC's answer to it is unknown: a person checks, then asks again. */
export const unknownVerificationReason = (why: string) =>
  `HMRC's answer to this verification is unknown: ${why}. It is not sent again by itself: check the subcontractor with HMRC (its online service), then verify the subcontractor again.`

/**
 * What came of a leased request: the tax authority's answer (given under `answeredUnder`, to be
 * deleted there once recorded); not yet (sent, or polled, and to be polled at `pollAt`, at
 * `endpoint`); to be sent afresh (`sendAgainAt`); the authority could not be reached; or it was
 * held (for want of credentials HMRC takes, held for the credentials set at `heldFor`; or because
 * HMRC's answer is unknown).
 */
export type VerificationAttempt =
  | {
      readonly claimed: ClaimedVerification
      readonly answer: VerificationAnswer
      readonly answeredUnder: SentMessage | null
    }
  | {
      readonly claimed: ClaimedVerification
      readonly pollAt: Date
      readonly endpoint: string | null
      readonly unknownAnswer?: UnknownAnswer
    }
  | {
      readonly claimed: ClaimedVerification
      readonly sendAgainAt: Date
      readonly failedAttempt: boolean
      readonly unknownAnswer?: UnknownAnswer
      /** HMRC's answer to the sending forgotten (its failure), deleted once this is recorded. */
      readonly answeredUnder: SentMessage | null
    }
  | { readonly claimed: ClaimedVerification; readonly unavailable: TaxAuthorityUnavailable }
  | {
      readonly claimed: ClaimedVerification
      readonly held: string
      readonly kind: HeldFor
      readonly heldFor: Date | null
    }
  /** The request was replaced, deleted with its contact, or taken over while it was sent. */
  | { readonly claimed: ClaimedVerification; readonly dropped: true }

/**
 * What a verification worker does: lease due requests and, outside any transaction, send each to
 * the tax authority, recording its acknowledgement (correlation id and response endpoint) at
 * once; poll there, no sooner than the authority's interval, at the endpoint each acknowledgement
 * names, for as long as it takes; record each answer on the contact (with contact.updated) in
 * the same transaction that removes the request, and only then delete the answer at the
 * authority. A worker that dies on the way leaves the lease to run out; the next one polls what
 * was recorded. An authority that cannot be reached leaves the request waiting, tried again later.
 * HMRC's answers at a poll are read as for returns (see ReturnFiling): a recoverable error sends
 * the request afresh; a correlation id HMRC no longer knows is settled by its data request, or
 * holds the request (the contact NotVerified saying so) until the subcontractor is verified again.
 *
 * Each request goes with the tenant's HMRC credentials. Without usable ones (none, or refused by
 * HMRC), or when HMRC refuses the ones it was sent with (at sending or at a poll, unless they
 * were replaced since: then it is sent again with the new ones), the request is held and the
 * contact stays NotVerified saying why, until the credentials are replaced or the CIS scheme
 * registration corrected; HMRC's final response marks the credentials it was sent with Accepted.
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

    const inMillis = (millis: number) => Effect.map(clock.now, (now) => new Date(now.getTime() + millis))

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

    /** Holds the request and shows why on the contact (still NotVerified, with contact.updated). */
    const holdWithReason = (claimed: ClaimedVerification, reason: string, kind: HeldFor) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        if (!(yield* queue.hold(claimed, reason, kind))) return "Dropped" as const
        const found = yield* contacts.findByCodeForUpdate(claimed.tenantId, claimed.contactCode)
        if (Option.isNone(found) || found.value.id !== claimed.contactId) return "Held" as const
        const waiting = new Contact({ ...found.value, verification: heldVerification(reason), updatedAt: now })
        yield* contacts.update(waiting)
        yield* outbox.record(claimed.tenantId, [contactEvent("contact.updated", waiting)])
        return "Held" as const
      })

    /**
     * Holds the request (see holdWithReason); one held for credentials is due again at once
     * instead when the credentials were set or replaced since it was held for them. The
     * credentials are locked meanwhile, as a return's are (see ReturnFiling).
     */
    const hold = (
      claimed: ClaimedVerification,
      reason: string,
      kind: HeldFor,
      heldFor: Date | null
    ): Effect.Effect<Settled> =>
      transaction(
        Effect.gen(function* () {
          if (kind === "Credentials") {
            const current = yield* credentialsRepo.findForUpdate(claimed.tenantId)
            if (Option.getOrNull(Option.map(current, (c) => c.updatedAt))?.getTime() !== heldFor?.getTime()) {
              yield* queue.sendAgain(claimed, yield* clock.now, { failedAttempt: false })
              return "Postponed" as const
            }
          }
          return yield* holdWithReason(claimed, reason, kind)
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

    /** HMRC's final response to a request sent with the credentials set at `setAt`: they are Accepted (written once). */
    const credentialsAccepted = (
      claimed: ClaimedVerification,
      setAt: Date | null,
      current: Option.Option<HmrcCredentials>
    ) =>
      setAt === null ||
      Option.exists(current, (c) => c.status === "Accepted" && c.updatedAt.getTime() === setAt.getTime())
        ? Effect.void
        : Effect.asVoid(transaction(credentialsRepo.recordStatus(claimed.tenantId, setAt, "Accepted")))

    /**
     * HMRC refused the credentials set at `sentWith`: they are Refused (unless replaced or
     * removed since: then the request is simply sent again), and the request held.
     */
    const refused = (claimed: ClaimedVerification, sentWith: Date | null, refusal: CredentialsRefused) =>
      Effect.gen(function* () {
        yield* Effect.logWarning("HMRC refused the Government Gateway credentials a verification was sent with").pipe(
          Effect.annotateLogs({ tenant: claimed.tenantId, contact: claimed.contactCode, reason: refusal.message })
        )
        const marked =
          sentWith !== null && (yield* transaction(credentialsRepo.recordStatus(claimed.tenantId, sentWith, "Refused")))
        if (marked)
          return { claimed, held: heldReason(refusal.message), kind: "Credentials", heldFor: sentWith } as const
        return { claimed, sendAgainAt: yield* clock.now, failedAttempt: false, answeredUnder: null } as const
      })

    /**
     * A poll found the correlation id unknown to HMRC: settled by HMRC's data request as for a
     * return (see afterUnknown), or the request held until the subcontractor is verified again.
     */
    const unknown = (
      claimed: ClaimedVerification,
      sent: Sending,
      reason: string,
      current: Option.Option<HmrcCredentials>
    ): Effect.Effect<VerificationAttempt> =>
      Effect.gen(function* () {
        yield* Effect.logWarning("HMRC no longer knows a verification's correlation id").pipe(
          Effect.annotateLogs({
            contact: claimed.contactCode,
            correlationId: sent.correlationId,
            reason,
            before: claimed.unknownAnswer ?? "never"
          })
        )
        const after = yield* afterUnknown(claimed.unknownAnswer, sent, reason, current, authority.lookUpVerification)
        switch (after._tag) {
          case "PollAgain":
            return {
              claimed,
              pollAt: yield* inMillis(sent.pollIntervalSeconds * 1000),
              endpoint: after.endpoint,
              unknownAnswer: "RecordSeen"
            } as const
          case "SendAgain":
            return {
              claimed,
              sendAgainAt: yield* clock.now,
              failedAttempt: false,
              unknownAnswer: "Resubmitted",
              answeredUnder: null
            } as const
          case "Hold":
            return {
              claimed,
              held: unknownVerificationReason(after.why),
              kind: "UnknownAnswer",
              heldFor: null
            } as const
        }
      })

    const ofPoll = (
      claimed: ClaimedVerification,
      sent: Sending,
      poll: VerificationPoll,
      current: Option.Option<HmrcCredentials>
    ): Effect.Effect<VerificationAttempt> =>
      Effect.gen(function* () {
        switch (poll._tag) {
          case "Matched":
            yield* credentialsAccepted(claimed, sent.credentialsSetAt, current)
            return { claimed, answer: poll, answeredUnder: sent }
          case "Refused":
            return { claimed, answer: poll, answeredUnder: sent }
          case "Pending":
            return {
              claimed,
              pollAt: yield* inMillis(poll.acknowledgement.pollIntervalSeconds * 1000),
              endpoint: poll.acknowledgement.endpoint
            }
          case "Failed":
            yield* Effect.logWarning("HMRC failed a verification's submission; it will be sent afresh").pipe(
              Effect.annotateLogs({ contact: claimed.contactCode, reason: poll.reason })
            )
            return {
              claimed,
              sendAgainAt: yield* inMillis(Duration.toMillis(retryDelay(claimed.attempts))),
              failedAttempt: true,
              answeredUnder: sent
            }
          case "Unknown":
            return yield* unknown(claimed, sent, poll.reason, current)
        }
      })

    /** Polls the recorded sending at its endpoint; polls carry no credentials. */
    const poll = (claimed: ClaimedVerification, sent: Sending, current: Option.Option<HmrcCredentials>) =>
      authority.pollVerification(sent).pipe(
        Effect.flatMap((polled) => ofPoll(claimed, sent, polled, current)),
        Effect.catchTags({
          CredentialsRefused: (refusal) => refused(claimed, refusedCredentialsSetAt(sent, current), refusal),
          TaxAuthorityUnavailable: (unavailable) => Effect.succeed<VerificationAttempt>({ claimed, unavailable })
        })
      )

    /** Sends the request with the tenant's credentials and records at once where HMRC answers it. */
    const send = (claimed: ClaimedVerification, stored: HmrcCredentials): Effect.Effect<VerificationAttempt> =>
      authority.sendVerification(verificationReference(claimed), claimed.request, stored.credentials).pipe(
        Effect.flatMap((sent): Effect.Effect<VerificationAttempt> =>
          Effect.gen(function* () {
            if (sent._tag !== "Acknowledged") return { claimed, answer: sent, answeredUnder: null }
            const now = yield* clock.now
            const { acknowledgement } = sent
            const recorded = yield* transaction(queue.recordSent(claimed, acknowledgement, stored.updatedAt, now))
            if (!recorded) return { claimed, dropped: true } as const
            // An authority that may be asked at once (no interval) is asked at once.
            if (acknowledgement.pollIntervalSeconds === 0)
              return yield* poll(
                claimed,
                { ...acknowledgement, credentialsSetAt: stored.updatedAt },
                Option.some(stored)
              )
            return {
              claimed,
              pollAt: new Date(now.getTime() + acknowledgement.pollIntervalSeconds * 1000),
              endpoint: acknowledgement.endpoint
            }
          })
        ),
        Effect.catchTags({
          CredentialsRefused: (refusal) => refused(claimed, stored.updatedAt, refusal),
          TaxAuthorityUnavailable: (unavailable) => Effect.succeed<VerificationAttempt>({ claimed, unavailable })
        })
      )

    /**
     * One leased request: polled at its recorded endpoint when it was sent; else sent now with
     * the tenant's credentials, or held when it has none HMRC takes.
     */
    const attempt = (claimed: ClaimedVerification): Effect.Effect<VerificationAttempt> =>
      Effect.gen(function* () {
        const current = yield* credentialsRepo.find(claimed.tenantId)
        if (claimed.sent !== null) return yield* poll(claimed, claimed.sent, current)
        return yield* Either.match(sendableCredentials(current), {
          onLeft: (held) =>
            Effect.succeed<VerificationAttempt>({
              claimed,
              held,
              kind: "Credentials",
              heldFor: Option.getOrNull(Option.map(current, (c) => c.updatedAt))
            }),
          onRight: (stored) => send(claimed, stored)
        })
      }).pipe(Effect.withSpan("VerificationWork.attempt"))

    /**
     * Records one attempt: the answer on the contact (then deleted at the authority), the request
     * awaiting its answer, to be sent afresh, postponed, or held.
     */
    const settleAttempt = (done: VerificationAttempt): Effect.Effect<Settled> => {
      if ("answer" in done)
        return Effect.tap(recordAnswer(done.claimed, done.answer), (settled) =>
          settled === "Answered" && done.answeredUnder !== null
            ? deleteAnswer(done.claimed, done.answeredUnder)
            : Effect.void
        )
      if ("pollAt" in done)
        return Effect.as(
          queue.awaitAnswer(done.claimed, done.pollAt, done.endpoint, done.unknownAnswer),
          "Awaiting" as const
        )
      if ("sendAgainAt" in done)
        return queue
          .sendAgain(done.claimed, done.sendAgainAt, {
            failedAttempt: done.failedAttempt,
            ...(done.unknownAnswer === undefined ? {} : { unknownAnswer: done.unknownAnswer })
          })
          .pipe(
            Effect.zipRight(done.answeredUnder === null ? Effect.void : deleteAnswer(done.claimed, done.answeredUnder)),
            Effect.as("Postponed" as const)
          )
      if ("dropped" in done) return Effect.succeed("Dropped" as const)
      if ("held" in done) return hold(done.claimed, done.held, done.kind, done.heldFor)
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
