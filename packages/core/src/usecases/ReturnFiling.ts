import { Duration, Effect } from "effect"
import { Clock } from "../ports/Clock.js"
import { EventOutbox } from "../ports/EventOutbox.js"
import { answered } from "../returns/MonthlyReturn.js"
import { monthlyReturnJson } from "../returns/MonthlyReturnView.js"
import { StatementMail } from "../returns/StatementMail.js"
import { type ClaimedReturn, MonthlyReturnRepo, type ReturnOutcome } from "../ports/MonthlyReturnRepo.js"
import { TaxAuthority } from "../ports/TaxAuthority.js"
import { Transactor } from "../ports/Transactor.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"

/** A return submitted under a lease, and what came of it, to be recorded. */
export interface SubmittedReturn {
  readonly claimed: ClaimedReturn
  readonly outcome: ReturnOutcome
}

/**
 * What a return filer does: lease due returns, submit each to the tax authority outside any
 * transaction, and record the answer. A filer that dies between the two leaves the lease to run
 * out, and the return is submitted again (at least once; the tax authority knows a return by its id).
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

    /** Submits one leased return; what came of it. */
    const outcomeOf = ({ monthlyReturn, attempts }: ClaimedReturn): Effect.Effect<ReturnOutcome> =>
      taxAuthority.submitReturn(monthlyReturn).pipe(
        Effect.flatMap((reply) =>
          reply._tag === "Accepted"
            ? Effect.map(clock.now, (at): ReturnOutcome => ({ _tag: "Accepted", at }))
            : Effect.succeed<ReturnOutcome>(reply)
        ),
        Effect.catchTag("TaxAuthorityUnavailable", (unavailable) =>
          Effect.logWarning("The tax authority did not take a monthly return; it will be submitted again").pipe(
            Effect.annotateLogs({ monthlyReturn: monthlyReturn.id, reason: unavailable.message }),
            Effect.zipRight(clock.now),
            Effect.map((now): ReturnOutcome => ({
              _tag: "Retry",
              nextAttemptAt: new Date(now.getTime() + Duration.toMillis(retryDelay(attempts + 1)))
            }))
          )
        ),
        Effect.withSpan("ReturnFiling.submit")
      )

    /**
     * Records the outcome and, with an answer, the event that announces it (and for an accepted
     * return the statements to mail), in one transaction; nothing when the lease was taken over.
     */
    const recordOne = ({ claimed, outcome }: SubmittedReturn) =>
      Effect.gen(function* () {
        if (outcome._tag === "Retry") return yield* transaction(repo.record(claimed, outcome))
        const result = answered(claimed.monthlyReturn, outcome)
        const toMail = outcome._tag === "Accepted" ? yield* statements.prepare(result) : []
        return yield* transaction(
          Effect.gen(function* () {
            const recorded = yield* repo.record(claimed, outcome)
            if (!recorded) return false
            const type = outcome._tag === "Accepted" ? "monthly-return.accepted" : "monthly-return.rejected"
            yield* outbox.record(result.tenantId, [{ type, data: monthlyReturnJson(result) }])
            yield* statements.queue(result, toMail)
            return true
          })
        )
      })

    const submit = (claimed: ClaimedReturn): Effect.Effect<SubmittedReturn> =>
      Effect.map(outcomeOf(claimed), (outcome) => ({ claimed, outcome }))

    /** Records submissions, one transaction each (an accepted return may carry many statements). */
    const record = (submitted: ReadonlyArray<SubmittedReturn>) =>
      Effect.forEach(submitted, recordOne, { discard: true })

    /** Claims up to `limit` due returns, submits them all at once, and records each answer; how many there were. */
    const fileDue = (limit: number, lease: Duration.Duration): Effect.Effect<number> =>
      claim(limit, lease).pipe(
        Effect.flatMap((claimed) => Effect.forEach(claimed, submit, { concurrency: "unbounded" })),
        Effect.tap(record),
        Effect.map((submitted) => submitted.length)
      )

    return { claim, submit, record, fileDue } as const
  })
}) {}
