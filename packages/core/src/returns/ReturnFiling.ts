import { Duration, Effect, Either, Option } from "effect"
import { heldReason, sendableCredentials } from "../credentials/CredentialsRequired.js"
import type { HmrcCredentials } from "../credentials/HmrcCredentials.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { Clock } from "../system/Clock.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { answered, HmrcReceipt } from "./MonthlyReturn.js"
import { monthlyReturnEventJson } from "./MonthlyReturnEventData.js"
import { StatementMail } from "./StatementMail.js"
import { type ClaimedReturn, MonthlyReturnRepo, type ReturnOutcome } from "./MonthlyReturnRepo.js"
import { type CredentialsRefused, TaxAuthority } from "../taxauthority/TaxAuthority.js"
import type { SentMessage } from "../taxauthority/Acknowledgement.js"
import { Transactor } from "../system/Transactor.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"
import type { ReturnPoll, ReturnSent, SentReturn } from "../taxauthority/ReturnSubmission.js"

/** A return submitted under a lease, and what came of it, to be recorded. */
export interface SubmittedReturn {
  readonly claimed: ClaimedReturn
  readonly outcome: ReturnOutcome
  /** The sending whose answer the outcome is, to be deleted at the tax authority once recorded. */
  readonly answeredUnder: SentMessage | null
  /** With a Held outcome: when the credentials it was held for were set (none: the tenant had none). */
  readonly heldFor?: Date | null
}

/**
 * What a return filer does: lease due returns, send each to the tax authority outside any
 * transaction (once: see TaxAuthority), record its correlation id and response endpoint at once,
 * poll there for the answer no sooner than the authority's interval (the return is due again
 * then, for whichever filer claims it), record the answer, and only then delete the answer at
 * that endpoint. A filer that dies on the way leaves the lease to run out; the next one polls the
 * return it finds recorded or at the tax authority (which still holds an answer not recorded),
 * and sends only a return the authority lacks.
 *
 * Each return goes with its tenant's HMRC credentials. A tenant without usable ones (none, or
 * refused by HMRC) has its returns Held, not sent; HMRC's refusal of them (when the return is
 * sent, or at a poll) holds the return too and marks them Refused, and a message HMRC took marks
 * them Accepted. A return held after it was sent keeps its recorded sending: released, it is polled.
 */
export class ReturnFiling extends Effect.Service<ReturnFiling>()("core/ReturnFiling", {
  dependencies: [StatementMail.Default],
  effect: Effect.gen(function* () {
    const repo = yield* MonthlyReturnRepo
    const taxAuthority = yield* TaxAuthority
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const outbox = yield* EventOutbox
    const statements = yield* StatementMail
    const credentialsRepo = yield* HmrcCredentialsRepo

    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) => repo.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit))

    /**
     * Records, at once, where the tax authority answers a return it took (and that HMRC took the
     * credentials it was sent with); then the answer is polled for no sooner than it said.
     */
    const recordSending = (claimed: ClaimedReturn, stored: HmrcCredentials, sent: SentReturn) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const { correlationId, endpoint, pollIntervalSeconds } = sent.acknowledgement
        const recorded = yield* transaction(
          repo.recordSent(claimed, { correlationId, endpoint, pollIntervalSeconds, irmark: sent.irmark }, now)
        )
        yield* credentialsAccepted(claimed, stored)
        return { recorded, nextAttemptAt: new Date(now.getTime() + pollIntervalSeconds * 1000) }
      })

    /** HMRC took a message sent with the credentials: they are Accepted (written once). */
    const credentialsAccepted = (claimed: ClaimedReturn, stored: HmrcCredentials) =>
      stored.status === "Accepted"
        ? Effect.void
        : Effect.asVoid(
            transaction(credentialsRepo.recordStatus(claimed.monthlyReturn.tenantId, stored.updatedAt, "Accepted"))
          )

    /**
     * Deletes a recorded answer at the tax authority, at the endpoint it answered from. One that
     * could not be deleted is left there (the authority drops old answers itself); the return's
     * record does not depend on it.
     */
    const deleteAnswer = (claimed: ClaimedReturn, sent: SentMessage) =>
      taxAuthority.deleteReturnAnswer(sent).pipe(
        Effect.catchAll((failure) =>
          Effect.logWarning("The tax authority's answer to a monthly return could not be deleted").pipe(
            Effect.annotateLogs({
              monthlyReturn: claimed.monthlyReturn.id,
              correlationId: sent.correlationId,
              reason: failure.message
            })
          )
        )
      )

    /**
     * What came of a poll of `polled`; a return to be asked for under another acknowledgement has
     * it recorded at once, and only then the earlier submission's answer deleted.
     */
    const outcomeOfPoll = (
      claimed: ClaimedReturn,
      stored: HmrcCredentials,
      polled: NonNullable<ClaimedReturn["sent"]>,
      poll: ReturnPoll
    ): Effect.Effect<SubmittedReturn> =>
      Effect.gen(function* () {
        const now = yield* clock.now
        switch (poll._tag) {
          case "Accepted": {
            const receipt = new HmrcReceipt({
              correlationId: polled.correlationId,
              irmark: polled.irmark ?? "",
              message: poll.message,
              receivedAt: now
            })
            return { claimed, outcome: { _tag: "Accepted", at: now, receipt }, answeredUnder: polled }
          }
          case "Rejected":
            return { claimed, outcome: poll, answeredUnder: polled }
          case "Pending":
            return {
              claimed,
              outcome: { _tag: "Pending", nextAttemptAt: new Date(now.getTime() + poll.retryAfterMs) },
              answeredUnder: null
            }
          case "Resent": {
            const { recorded } = yield* recordSending(claimed, stored, poll.sent)
            if (
              recorded &&
              poll.sent.acknowledgement.correlationId !== polled.correlationId &&
              polled.endpoint !== null
            )
              yield* deleteAnswer(claimed, polled)
            return {
              claimed,
              outcome: { _tag: "Pending", nextAttemptAt: new Date(now.getTime() + poll.retryAfterMs) },
              answeredUnder: null
            }
          }
        }
      })

    /** Held, to be recorded: nothing was sent (or polled for), for want of credentials HMRC takes. */
    const heldOutcome = (claimed: ClaimedReturn, reason: string, heldFor: Date | null): SubmittedReturn => ({
      claimed,
      outcome: { _tag: "Held", reason },
      answeredUnder: null,
      heldFor
    })

    /**
     * HMRC refused the credentials: they are Refused, and the return Held; unless they were
     * replaced meanwhile, when the return is simply tried again (with the new ones).
     */
    const refused = (claimed: ClaimedReturn, stored: HmrcCredentials, refusal: CredentialsRefused) =>
      Effect.gen(function* () {
        yield* Effect.logWarning("HMRC refused a tenant's Government Gateway credentials; its filing is held").pipe(
          Effect.annotateLogs({ tenant: claimed.monthlyReturn.tenantId, reason: refusal.message })
        )
        const marked = yield* transaction(
          credentialsRepo.recordStatus(claimed.monthlyReturn.tenantId, stored.updatedAt, "Refused")
        )
        if (marked) return heldOutcome(claimed, heldReason(refusal.message), stored.updatedAt)
        return { claimed, outcome: { _tag: "Retry", nextAttemptAt: yield* clock.now }, answeredUnder: null } as const
      })

    /** One leased return with the tenant's credentials (see attemptWith); held when it has none HMRC takes. */
    const attempt = (claimed: ClaimedReturn): Effect.Effect<SubmittedReturn> =>
      Effect.flatMap(credentialsRepo.find(claimed.monthlyReturn.tenantId), (found) =>
        Either.match(sendableCredentials(found), {
          onLeft: (reason) =>
            Effect.succeed(heldOutcome(claimed, reason, Option.getOrNull(Option.map(found, (f) => f.updatedAt)))),
          onRight: (stored) =>
            attemptWith(claimed, stored).pipe(
              Effect.catchTag("CredentialsRefused", (refusal) => refused(claimed, stored, refusal))
            )
        })
      ).pipe(Effect.withSpan("ReturnFiling.attempt"))

    /**
     * One leased return: polled at its recorded endpoint when it was sent; else found at the tax
     * authority (sent by a filer that died before recording it) or sent now, and that recorded at
     * once, to be polled once the authority's interval passed. HMRC's refusal of the credentials,
     * at any step, is left to the caller; the authority not answering makes the return due again.
     */
    const attemptWith = (
      claimed: ClaimedReturn,
      stored: HmrcCredentials
    ): Effect.Effect<SubmittedReturn, CredentialsRefused> =>
      Effect.gen(function* () {
        const credentials = stored.credentials
        if (claimed.sent !== null) {
          const polled = claimed.sent
          return yield* Effect.flatMap(taxAuthority.pollReturn(polled, claimed.monthlyReturn, credentials), (poll) =>
            outcomeOfPoll(claimed, stored, polled, poll)
          )
        }
        const found = yield* taxAuthority.findSentReturn(claimed.monthlyReturn, credentials)
        const sent: ReturnSent = Option.isSome(found)
          ? found.value
          : yield* taxAuthority.sendReturn(claimed.monthlyReturn, credentials)
        if (sent._tag === "Rejected") return { claimed, outcome: sent, answeredUnder: null } satisfies SubmittedReturn
        const { nextAttemptAt, recorded } = yield* recordSending(claimed, stored, sent)
        const polled = {
          correlationId: sent.acknowledgement.correlationId,
          endpoint: sent.acknowledgement.endpoint,
          irmark: sent.irmark
        }
        // An authority that may be asked at once (no interval) is asked at once.
        if (recorded && sent.acknowledgement.pollIntervalSeconds === 0)
          return yield* Effect.flatMap(taxAuthority.pollReturn(polled, claimed.monthlyReturn, credentials), (poll) =>
            outcomeOfPoll(claimed, stored, polled, poll)
          )
        return { claimed, outcome: { _tag: "Pending", nextAttemptAt }, answeredUnder: null } satisfies SubmittedReturn
      }).pipe(
        Effect.catchTag("TaxAuthorityUnavailable", (failure) =>
          Effect.logWarning("The tax authority did not take a monthly return; it will be tried again").pipe(
            Effect.annotateLogs({ monthlyReturn: claimed.monthlyReturn.id, reason: failure.message }),
            Effect.zipRight(clock.now),
            Effect.map((now): SubmittedReturn => ({
              claimed,
              outcome: {
                _tag: "Retry",
                nextAttemptAt: new Date(now.getTime() + Duration.toMillis(retryDelay(claimed.attempts + 1)))
              },
              answeredUnder: null
            }))
          )
        )
      )

    /**
     * Records the outcome and, with an answer, the event that announces it (and for an accepted
     * return the statements to mail), in one transaction; nothing when the lease was taken over.
     * Only an answer so recorded is then deleted at the tax authority: until then, it is what a
     * filer taking over the return polls for.
     */
    const recordOne = ({ answeredUnder, claimed, heldFor, outcome }: SubmittedReturn) =>
      Effect.gen(function* () {
        if (outcome._tag === "Retry" || outcome._tag === "Pending")
          return yield* transaction(repo.record(claimed, outcome))
        if (outcome._tag === "Held") return yield* transaction(recordHeld(claimed, outcome, heldFor ?? null))
        const result = answered(claimed.monthlyReturn, outcome)
        const toMail = outcome._tag === "Accepted" ? yield* statements.prepare(result) : []
        const recorded = yield* transaction(
          Effect.gen(function* () {
            const recorded = yield* repo.record(claimed, outcome)
            if (!recorded) return false
            const type = outcome._tag === "Accepted" ? "monthly-return.accepted" : "monthly-return.rejected"
            yield* outbox.record(result.tenantId, [{ type, data: monthlyReturnEventJson(result) }])
            yield* statements.queue(result, toMail)
            return true
          })
        )
        if (recorded && answeredUnder !== null) yield* deleteAnswer(claimed, answeredUnder)
        return recorded
      })

    /**
     * Records a return Held, unless the tenant's credentials were set or replaced since it was
     * held for them (then it is due again at once): the credentials are locked while it is
     * recorded, so a replacement made at the same time releases it, or is seen here.
     */
    const recordHeld = (claimed: ClaimedReturn, outcome: ReturnOutcome & { _tag: "Held" }, heldFor: Date | null) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const current = yield* credentialsRepo.findForUpdate(claimed.monthlyReturn.tenantId)
        const currentSetAt = Option.getOrNull(Option.map(current, (c) => c.updatedAt))
        const replaced = currentSetAt?.getTime() !== heldFor?.getTime()
        return yield* repo.record(claimed, replaced ? { _tag: "Pending", nextAttemptAt: now } : outcome)
      })

    /** Records submissions, one transaction each (an accepted return may carry many statements). */
    const record = (submitted: ReadonlyArray<SubmittedReturn>) =>
      Effect.forEach(submitted, recordOne, { discard: true })

    /** Claims up to `limit` due returns, submits them all at once, and records each answer; how many there were. */
    const fileDue = (limit: number, lease: Duration.Duration): Effect.Effect<number> =>
      claim(limit, lease).pipe(
        Effect.flatMap((claimed) => Effect.forEach(claimed, attempt, { concurrency: "unbounded" })),
        Effect.tap(record),
        Effect.map((submitted) => submitted.length)
      )

    return { claim, attempt, record, fileDue } as const
  })
}) {}
