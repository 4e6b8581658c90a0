import { Duration, Effect, Either, Option } from "effect"
import { heldReason, sendableCredentials } from "../credentials/CredentialsRequired.js"
import type { HmrcCredentials } from "../credentials/HmrcCredentials.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { Clock } from "../system/Clock.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { answered } from "./MonthlyReturn.js"
import { monthlyReturnJson } from "./MonthlyReturnView.js"
import { StatementMail } from "./StatementMail.js"
import { type ClaimedReturn, MonthlyReturnRepo, type ReturnOutcome } from "./MonthlyReturnRepo.js"
import { type CredentialsRefused, TaxAuthority, type TaxAuthorityUnavailable } from "../taxauthority/TaxAuthority.js"
import { Transactor } from "../system/Transactor.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"
import type { ReturnPoll, ReturnSent } from "../taxauthority/ReturnSubmission.js"

/** A return submitted under a lease, and what came of it, to be recorded. */
export interface SubmittedReturn {
  readonly claimed: ClaimedReturn
  readonly outcome: ReturnOutcome
  /** The correlation id whose answer the outcome is, to be deleted at the tax authority once recorded. */
  readonly answeredUnder: string | null
  /** With a Held outcome: when the credentials it was held for were set (none: the tenant had none). */
  readonly heldFor?: Date | null
}

/**
 * What a return filer does: lease due returns, send each to the tax authority outside any
 * transaction (once: see TaxAuthority), record its correlation id, poll for the answer, and record
 * the answer, and only then delete the answer at the tax authority. A filer that dies on the way
 * leaves the lease to run out; the next one polls the return it finds recorded or at the tax
 * authority (which still holds an answer not recorded), and sends only a return the authority lacks.
 *
 * Each return goes with its tenant's HMRC credentials. A tenant without usable ones (none, or
 * refused by HMRC) has its returns Held, not sent; HMRC's refusal of them holds the return too and
 * marks them Refused, and a message HMRC took marks them Accepted.
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
     * The return's correlation id at the tax authority: the recorded one, else the one the
     * authority has under the return's id, else it is sent now; or the authority's refusal.
     */
    const sentReturn = (
      claimed: ClaimedReturn,
      stored: HmrcCredentials
    ): Effect.Effect<ReturnSent, TaxAuthorityUnavailable | CredentialsRefused> => {
      if (claimed.correlationId !== null)
        return Effect.succeed({ _tag: "Acknowledged", correlationId: claimed.correlationId })
      return taxAuthority.findSentReturn(claimed.monthlyReturn.id, stored.credentials).pipe(
        Effect.flatMap(
          Option.match({
            onSome: (correlationId) => Effect.succeed<ReturnSent>({ _tag: "Acknowledged", correlationId }),
            onNone: () => taxAuthority.sendReturn(claimed.monthlyReturn, stored.credentials)
          })
        ),
        Effect.tap((sent) =>
          sent._tag === "Acknowledged"
            ? Effect.flatMap(clock.now, (at) => transaction(repo.recordSent(claimed, sent.correlationId, at))).pipe(
                Effect.zipRight(credentialsAccepted(claimed, stored))
              )
            : Effect.void
        )
      )
    }

    /** HMRC took a message sent with the credentials: they are Accepted (written once). */
    const credentialsAccepted = (claimed: ClaimedReturn, stored: HmrcCredentials) =>
      stored.status === "Accepted"
        ? Effect.void
        : Effect.asVoid(
            transaction(credentialsRepo.recordStatus(claimed.monthlyReturn.tenantId, stored.updatedAt, "Accepted"))
          )

    /**
     * Deletes a recorded answer at the tax authority. One that could not be deleted is left there
     * (the authority drops old answers itself); the return's record does not depend on it.
     */
    const deleteAnswer = (claimed: ClaimedReturn, correlationId: string) =>
      taxAuthority.deleteReturnAnswer(correlationId).pipe(
        Effect.catchTag("TaxAuthorityUnavailable", (unavailable) =>
          Effect.logWarning("The tax authority's answer to a monthly return could not be deleted").pipe(
            Effect.annotateLogs({
              monthlyReturn: claimed.monthlyReturn.id,
              correlationId,
              reason: unavailable.message
            })
          )
        )
      )

    /**
     * What came of a poll under `polled`; a return sent again has its new correlation id recorded
     * at once, and only then the failed submission's answer deleted.
     */
    const outcomeOfPoll = (claimed: ClaimedReturn, polled: string, poll: ReturnPoll) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        if (poll._tag === "Accepted") return { _tag: "Accepted", at: now } as const
        if (poll._tag === "Rejected") return poll
        if (poll._tag === "Resent" && (yield* transaction(repo.recordSent(claimed, poll.correlationId, now))))
          yield* deleteAnswer(claimed, polled)
        return { _tag: "Pending", nextAttemptAt: new Date(now.getTime() + poll.retryAfterMs) } as const
      })

    /** Held, to be recorded: nothing was sent, for want of credentials HMRC takes. */
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

    /** Sends (or finds) one leased return with the tenant's credentials and polls for its answer, to be recorded. */
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

    const attemptWith = (
      claimed: ClaimedReturn,
      stored: HmrcCredentials
    ): Effect.Effect<SubmittedReturn, CredentialsRefused> =>
      sentReturn(claimed, stored).pipe(
        Effect.flatMap((sent) =>
          sent._tag === "Rejected"
            ? Effect.succeed<SubmittedReturn>({ claimed, outcome: sent, answeredUnder: null })
            : Effect.flatMap(
                taxAuthority.pollReturn(sent.correlationId, claimed.monthlyReturn, stored.credentials),
                (poll) =>
                  Effect.map(outcomeOfPoll(claimed, sent.correlationId, poll), (outcome): SubmittedReturn => ({
                    claimed,
                    outcome,
                    answeredUnder:
                      outcome._tag === "Accepted" || outcome._tag === "Rejected" ? sent.correlationId : null
                  }))
              )
        ),
        Effect.catchTag("TaxAuthorityUnavailable", (unavailable) =>
          Effect.logWarning("The tax authority did not take a monthly return; it will be tried again").pipe(
            Effect.annotateLogs({ monthlyReturn: claimed.monthlyReturn.id, reason: unavailable.message }),
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
            yield* outbox.record(result.tenantId, [{ type, data: monthlyReturnJson(result) }])
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
