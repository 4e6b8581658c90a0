import { Duration, Effect, Option } from "effect"
import { Clock } from "../system/Clock.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { answered, HmrcReceipt } from "./MonthlyReturn.js"
import { monthlyReturnJson } from "./MonthlyReturnView.js"
import { StatementMail } from "./StatementMail.js"
import { type ClaimedReturn, MonthlyReturnRepo, type ReturnOutcome } from "./MonthlyReturnRepo.js"
import { TaxAuthority } from "../taxauthority/TaxAuthority.js"
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
}

/**
 * What a return filer does: lease due returns, send each to the tax authority outside any
 * transaction (once: see TaxAuthority), record its correlation id and response endpoint at once,
 * poll there for the answer no sooner than the authority's interval (the return is due again
 * then, for whichever filer claims it), record the answer, and only then delete the answer at
 * that endpoint. A filer that dies on the way leaves the lease to run out; the next one polls the
 * return it finds recorded or at the tax authority (which still holds an answer not recorded),
 * and sends only a return the authority lacks.
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

    /** Records, at once, where the tax authority answers a return it took; then the answer is polled for no sooner than it said. */
    const recordSending = (claimed: ClaimedReturn, sent: SentReturn) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const { correlationId, endpoint, pollIntervalSeconds } = sent.acknowledgement
        const recorded = yield* transaction(
          repo.recordSent(claimed, { correlationId, endpoint, pollIntervalSeconds, irmark: sent.irmark }, now)
        )
        return { recorded, nextAttemptAt: new Date(now.getTime() + pollIntervalSeconds * 1000) }
      })

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
            const { recorded } = yield* recordSending(claimed, poll.sent)
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

    /**
     * One leased return: polled at its recorded endpoint when it was sent; else found at the tax
     * authority (sent by a filer that died before recording it) or sent now, and that recorded at
     * once, to be polled once the authority's interval passed.
     */
    const attempt = (claimed: ClaimedReturn): Effect.Effect<SubmittedReturn> =>
      Effect.gen(function* () {
        if (claimed.sent !== null)
          return yield* Effect.flatMap(taxAuthority.pollReturn(claimed.sent, claimed.monthlyReturn), (poll) =>
            outcomeOfPoll(claimed, claimed.sent!, poll)
          )
        const found = yield* taxAuthority.findSentReturn(claimed.monthlyReturn)
        const sent: ReturnSent = Option.isSome(found)
          ? found.value
          : yield* taxAuthority.sendReturn(claimed.monthlyReturn)
        if (sent._tag === "Rejected") return { claimed, outcome: sent, answeredUnder: null } satisfies SubmittedReturn
        const { nextAttemptAt, recorded } = yield* recordSending(claimed, sent)
        const polled = {
          correlationId: sent.acknowledgement.correlationId,
          endpoint: sent.acknowledgement.endpoint,
          irmark: sent.irmark
        }
        // An authority that may be asked at once (no interval) is asked at once.
        if (recorded && sent.acknowledgement.pollIntervalSeconds === 0)
          return yield* Effect.flatMap(taxAuthority.pollReturn(polled, claimed.monthlyReturn), (poll) =>
            outcomeOfPoll(claimed, polled, poll)
          )
        return { claimed, outcome: { _tag: "Pending", nextAttemptAt }, answeredUnder: null } satisfies SubmittedReturn
      }).pipe(
        Effect.catchAll((failure) =>
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
