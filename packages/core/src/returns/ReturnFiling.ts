import { Duration, Effect, Option } from "effect"
import { Clock } from "../system/Clock.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { answered } from "./MonthlyReturn.js"
import { monthlyReturnJson } from "./MonthlyReturnView.js"
import { StatementMail } from "./StatementMail.js"
import { type ClaimedReturn, MonthlyReturnRepo, type ReturnOutcome } from "./MonthlyReturnRepo.js"
import { TaxAuthority, type TaxAuthorityUnavailable } from "../taxauthority/TaxAuthority.js"
import { Transactor } from "../system/Transactor.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"
import type { ReturnPoll, ReturnSent } from "../taxauthority/ReturnSubmission.js"

/** A return submitted under a lease, and what came of it, to be recorded. */
export interface SubmittedReturn {
  readonly claimed: ClaimedReturn
  readonly outcome: ReturnOutcome
  /** The correlation id whose answer the outcome is, to be deleted at the tax authority once recorded. */
  readonly answeredUnder: string | null
}

/**
 * What a return filer does: lease due returns, send each to the tax authority outside any
 * transaction (once: see TaxAuthority), record its correlation id, poll for the answer, and record
 * the answer, and only then delete the answer at the tax authority. A filer that dies on the way
 * leaves the lease to run out; the next one polls the return it finds recorded or at the tax
 * authority (which still holds an answer not recorded), and sends only a return the authority lacks.
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

    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) => repo.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit))

    /**
     * The return's correlation id at the tax authority: the recorded one, else the one the
     * authority has under the return's id, else it is sent now; or the authority's refusal.
     */
    const sentReturn = (claimed: ClaimedReturn): Effect.Effect<ReturnSent, TaxAuthorityUnavailable> => {
      if (claimed.correlationId !== null)
        return Effect.succeed({ _tag: "Acknowledged", correlationId: claimed.correlationId })
      return taxAuthority.findSentReturn(claimed.monthlyReturn.id).pipe(
        Effect.flatMap(
          Option.match({
            onSome: (correlationId) => Effect.succeed<ReturnSent>({ _tag: "Acknowledged", correlationId }),
            onNone: () => taxAuthority.sendReturn(claimed.monthlyReturn)
          })
        ),
        Effect.tap((sent) =>
          sent._tag === "Acknowledged"
            ? Effect.flatMap(clock.now, (at) => transaction(repo.recordSent(claimed, sent.correlationId, at)))
            : Effect.void
        )
      )
    }

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

    /** Sends (or finds) one leased return and polls for its answer, to be recorded. */
    const attempt = (claimed: ClaimedReturn): Effect.Effect<SubmittedReturn> =>
      sentReturn(claimed).pipe(
        Effect.flatMap((sent) =>
          sent._tag === "Rejected"
            ? Effect.succeed<SubmittedReturn>({ claimed, outcome: sent, answeredUnder: null })
            : Effect.flatMap(taxAuthority.pollReturn(sent.correlationId, claimed.monthlyReturn), (poll) =>
                Effect.map(outcomeOfPoll(claimed, sent.correlationId, poll), (outcome): SubmittedReturn => ({
                  claimed,
                  outcome,
                  answeredUnder: outcome._tag === "Accepted" || outcome._tag === "Rejected" ? sent.correlationId : null
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
        ),
        Effect.withSpan("ReturnFiling.attempt")
      )

    /**
     * Records the outcome and, with an answer, the event that announces it (and for an accepted
     * return the statements to mail), in one transaction; nothing when the lease was taken over.
     * Only an answer so recorded is then deleted at the tax authority: until then, it is what a
     * filer taking over the return polls for.
     */
    const recordOne = ({ answeredUnder, claimed, outcome }: SubmittedReturn) =>
      Effect.gen(function* () {
        if (outcome._tag === "Retry" || outcome._tag === "Pending")
          return yield* transaction(repo.record(claimed, outcome))
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
