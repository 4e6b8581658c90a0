import { Duration, Effect, Either, Option } from "effect"
import { Contact } from "../contacts/Contact.js"
import { heldReason, heldVerification, sendableCredentials } from "../credentials/CredentialsRequired.js"
import type { HmrcCredentials } from "../credentials/HmrcCredentials.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
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

export type Settled = "Answered" | "Dropped" | "Postponed" | "Held"

/**
 * What the tax authority said about a leased request, or that it could not be reached; or that
 * it was not sent, for want of credentials HMRC takes (held for the credentials set at `heldFor`).
 */
export type VerificationAttempt =
  | { readonly claimed: ClaimedVerification; readonly answer: VerificationAnswer }
  | { readonly claimed: ClaimedVerification; readonly unavailable: TaxAuthorityUnavailable }
  | { readonly claimed: ClaimedVerification; readonly held: string; readonly heldFor: Date | null }

/**
 * What a verification worker does: lease due requests, ask the tax authority about each outside
 * any transaction, and record each answer on the contact (with contact.updated) in the same
 * transaction that removes the request. A worker that dies in between leaves the lease to run
 * out, and the request is sent again (at least once). An authority that cannot be reached
 * leaves the request waiting, tried again later.
 *
 * Each request goes with the tenant's HMRC credentials. Without usable ones (none, or refused by
 * HMRC), or when HMRC refuses them, the request is held and the contact stays NotVerified saying
 * why, until the credentials are replaced; a message HMRC answered marks them Accepted.
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

    /** Asks with the credentials; HMRC's refusal of them marks them Refused (unless replaced meanwhile). */
    const askWith = (claimed: ClaimedVerification, stored: HmrcCredentials): Effect.Effect<VerificationAttempt> =>
      authority.verify(claimed.request, stored.credentials).pipe(
        Effect.tap(() =>
          stored.status === "Accepted"
            ? Effect.void
            : transaction(credentialsRepo.recordStatus(claimed.tenantId, stored.updatedAt, "Accepted"))
        ),
        Effect.map((answer): VerificationAttempt => ({ claimed, answer })),
        Effect.catchTags({
          TaxAuthorityUnavailable: (unavailable) => Effect.succeed({ claimed, unavailable }),
          CredentialsRefused: (refusal) =>
            Effect.as(
              Effect.zipRight(
                Effect.logWarning(
                  "HMRC refused a tenant's Government Gateway credentials; its verifications wait"
                ).pipe(Effect.annotateLogs({ tenant: claimed.tenantId, reason: refusal.message })),
                transaction(credentialsRepo.recordStatus(claimed.tenantId, stored.updatedAt, "Refused"))
              ),
              { claimed, held: heldReason(refusal.message), heldFor: stored.updatedAt }
            )
        })
      )

    /** Asks the tax authority about one leased request with the tenant's credentials; what came of it, to be recorded. */
    const attempt = (claimed: ClaimedVerification): Effect.Effect<VerificationAttempt> =>
      Effect.flatMap(credentialsRepo.find(claimed.tenantId), (found) =>
        Either.match(sendableCredentials(found), {
          onLeft: (held) =>
            Effect.succeed<VerificationAttempt>({
              claimed,
              held,
              heldFor: Option.getOrNull(Option.map(found, (f) => f.updatedAt))
            }),
          onRight: (stored) => askWith(claimed, stored)
        })
      ).pipe(Effect.withSpan("VerificationWork.attempt"))

    /** Records one attempt: the answer on the contact, the request postponed, or held. */
    const settleAttempt = (done: VerificationAttempt): Effect.Effect<Settled> =>
      "answer" in done
        ? recordAnswer(done.claimed, done.answer)
        : "unavailable" in done
          ? postpone(done.claimed, done.unavailable)
          : hold(done.claimed, done.held, done.heldFor)

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
