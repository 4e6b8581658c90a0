import { Duration, Effect, Either, Option } from "effect"
import { refusedCredentialsSetAt } from "../credentials/RefusedCredentials.js"
import { heldReason, sendableCredentials } from "../credentials/CredentialsRequired.js"
import type { HmrcCredentials } from "../credentials/HmrcCredentials.js"
import { HmrcCredentialsRepo } from "../credentials/HmrcCredentialsRepo.js"
import { Clock } from "../system/Clock.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { answered, HmrcReceipt } from "./MonthlyReturn.js"
import { monthlyReturnEventJson } from "./MonthlyReturnEventData.js"
import { StatementIssue } from "./StatementIssue.js"
import { type ClaimedReturn, MonthlyReturnRepo, type ReturnOutcome } from "./MonthlyReturnRepo.js"
import { type CredentialsRefused, TaxAuthority, type TaxAuthorityUnavailable } from "../taxauthority/TaxAuthority.js"
import type { SentMessage } from "../taxauthority/Acknowledgement.js"
import { Transactor } from "../system/Transactor.js"
import { retryDelay } from "../taxauthority/RetryDelay.js"
import type { ReturnPoll, SentReturn } from "../taxauthority/ReturnSubmission.js"
import { afterUnknown } from "../taxauthority/UnknownAnswer.js"

/** A return submitted under a lease, and what came of it, to be recorded. */
export interface SubmittedReturn {
  readonly claimed: ClaimedReturn
  readonly outcome: ReturnOutcome
  /**
   * The sending whose answer the outcome is (or that HMRC failed), to be deleted at the tax
   * authority once the outcome is recorded.
   */
  readonly answeredUnder: SentMessage | null
  /** With an outcome Held for credentials: when the credentials it was held for were set (none: the tenant had none). */
  readonly heldFor?: Date | null
}

/** A recorded sending, as polled. */
type Sending = NonNullable<ClaimedReturn["sent"]>

/** Why a return is held when HMRC's answer to it is unknown: a person checks HMRC's online service, then releases it. */
export const unknownAnswerReason = (why: string) =>
  `HMRC's answer to this return is unknown: ${why}. Nothing more is sent for it by itself: check HMRC's online service for the return, and only if HMRC has not filed it send it again with \`pnpm cli returns release\`.`

/**
 * What a return filer does: lease due returns, send each to the tax authority outside any
 * transaction, record its correlation id and response endpoint at once, poll there for the
 * answer no sooner than the authority's interval (the return is due again then, for whichever
 * filer claims it), at the endpoint each acknowledgement names, record the answer, and only then
 * delete the answer at that endpoint. A filer that dies on the way leaves the lease to run out;
 * the next one polls the return it finds recorded (the authority still holds an answer not
 * recorded), so nothing is sent twice after its acknowledgement was recorded.
 *
 * HMRC's answers at a poll: `response` accepts (the receipt checked against the IRmark sent), a
 * business or fatal error rejects, a recoverable error (HMRC failed the submission) sends the
 * return afresh later. A correlation id HMRC no longer knows leaves the outcome unknown: HMRC's
 * data request is asked whether it records it (then it is polled again) or not (then it is sent
 * again, once); a second such answer after either, or a data request HMRC refuses, holds the
 * return for a person to check.
 *
 * Each return goes with its tenant's HMRC credentials. A tenant without usable ones (none, or
 * refused by HMRC) has its returns Held, not sent; HMRC's refusal of the credentials a return was
 * sent with (when it is sent, or at a poll) marks them Refused and holds the return, unless they
 * were replaced since, when it is simply sent again with the new ones. HMRC's final `response`
 * to a return marks the credentials it was sent with Accepted. Polls carry no credentials.
 */
export class ReturnFiling extends Effect.Service<ReturnFiling>()("core/ReturnFiling", {
  dependencies: [StatementIssue.Default],
  effect: Effect.gen(function* () {
    const repo = yield* MonthlyReturnRepo
    const taxAuthority = yield* TaxAuthority
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const outbox = yield* EventOutbox
    const statements = yield* StatementIssue
    const credentialsRepo = yield* HmrcCredentialsRepo

    const claim = (limit: number, lease: Duration.Duration) =>
      Effect.flatMap(clock.now, (now) => repo.claimDue(now, new Date(now.getTime() + Duration.toMillis(lease)), limit))

    const inMillis = (millis: number) => Effect.map(clock.now, (now) => new Date(now.getTime() + millis))

    /** Records, at once, where the tax authority answers a return it took; then it is polled no sooner than it said. */
    const recordSending = (claimed: ClaimedReturn, stored: HmrcCredentials, sent: SentReturn) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const { correlationId, endpoint, pollIntervalSeconds } = sent.acknowledgement
        return yield* transaction(
          repo.recordSent(
            claimed,
            {
              correlationId,
              endpoint,
              pollIntervalSeconds,
              irmark: sent.irmark,
              credentialsSetAt: stored.updatedAt,
              gatewayTest: sent.gatewayTest
            },
            now
          )
        )
      })

    /** HMRC's final response to a return sent with the credentials set at `setAt`: they are Accepted (written once). */
    const credentialsAccepted = (
      claimed: ClaimedReturn,
      setAt: Date | null,
      current: Option.Option<HmrcCredentials>
    ) =>
      setAt === null ||
      Option.exists(current, (c) => c.status === "Accepted" && c.updatedAt.getTime() === setAt.getTime())
        ? Effect.void
        : Effect.asVoid(transaction(credentialsRepo.recordStatus(claimed.monthlyReturn.tenantId, setAt, "Accepted")))

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

    /** The tax authority could not be reached: tried again later, keeping whatever was recorded of the sending. */
    const retry = (claimed: ClaimedReturn, failure: TaxAuthorityUnavailable) =>
      Effect.logWarning("The tax authority did not take or answer a monthly return; it will be tried again").pipe(
        Effect.annotateLogs({ monthlyReturn: claimed.monthlyReturn.id, reason: failure.message }),
        Effect.zipRight(inMillis(Duration.toMillis(retryDelay(claimed.attempts + 1)))),
        Effect.map((nextAttemptAt): SubmittedReturn => ({
          claimed,
          outcome: { _tag: "Retry", nextAttemptAt },
          answeredUnder: null
        }))
      )

    const held = (
      claimed: ClaimedReturn,
      heldFor: "Credentials" | "UnknownAnswer",
      reason: string,
      credentialsSetAt: Date | null = null
    ): SubmittedReturn => ({
      claimed,
      outcome: { _tag: "Held", heldFor, reason },
      answeredUnder: null,
      heldFor: credentialsSetAt
    })

    /**
     * HMRC refused the credentials set at `sentWith`: they are Refused, and the return Held;
     * unless they were replaced (or removed) since, when the return is sent again at once with
     * whatever the tenant has now, marking and holding nothing.
     */
    const refused = (claimed: ClaimedReturn, sentWith: Date | null, refusal: CredentialsRefused) =>
      Effect.gen(function* () {
        yield* Effect.logWarning("HMRC refused the Government Gateway credentials a monthly return was sent with").pipe(
          Effect.annotateLogs({
            tenant: claimed.monthlyReturn.tenantId,
            monthlyReturn: claimed.monthlyReturn.id,
            reason: refusal.message
          })
        )
        const marked =
          sentWith !== null &&
          (yield* transaction(credentialsRepo.recordStatus(claimed.monthlyReturn.tenantId, sentWith, "Refused")))
        if (marked) return held(claimed, "Credentials", heldReason(refusal.message), sentWith)
        return {
          claimed,
          outcome: { _tag: "SendAgain", nextAttemptAt: yield* clock.now, failedAttempt: false },
          answeredUnder: null
        } satisfies SubmittedReturn
      })

    /**
     * A poll found the correlation id unknown to HMRC: settled by HMRC's data request (see
     * afterUnknown), or the return held for a person.
     */
    const unknown = (
      claimed: ClaimedReturn,
      sent: Sending,
      reason: string,
      current: Option.Option<HmrcCredentials>
    ): Effect.Effect<SubmittedReturn> =>
      Effect.gen(function* () {
        yield* Effect.logWarning("HMRC no longer knows a monthly return's correlation id").pipe(
          Effect.annotateLogs({
            monthlyReturn: claimed.monthlyReturn.id,
            correlationId: sent.correlationId,
            reason,
            before: claimed.unknownAnswer ?? "never"
          })
        )
        const after = yield* afterUnknown(claimed.unknownAnswer, sent, reason, current, taxAuthority.lookUpReturn)
        switch (after._tag) {
          case "PollAgain":
            return {
              claimed,
              outcome: {
                _tag: "Pending",
                nextAttemptAt: yield* inMillis(sent.pollIntervalSeconds * 1000),
                endpoint: after.endpoint,
                unknownAnswer: "RecordSeen"
              },
              answeredUnder: null
            } satisfies SubmittedReturn
          case "SendAgain":
            return {
              claimed,
              outcome: {
                _tag: "SendAgain",
                nextAttemptAt: yield* clock.now,
                failedAttempt: false,
                unknownAnswer: "Resubmitted"
              },
              answeredUnder: null
            } satisfies SubmittedReturn
          case "Hold":
            return held(claimed, "UnknownAnswer", unknownAnswerReason(after.why))
        }
      })

    /** What came of a poll of the recorded sending. */
    const outcomeOfPoll = (
      claimed: ClaimedReturn,
      sent: Sending,
      poll: ReturnPoll,
      current: Option.Option<HmrcCredentials>
    ): Effect.Effect<SubmittedReturn> =>
      Effect.gen(function* () {
        switch (poll._tag) {
          case "Accepted": {
            const now = yield* clock.now
            const irmarkVerified = poll.receipt.irmark !== null && poll.receipt.irmark === sent.irmark
            if (!irmarkVerified)
              yield* Effect.logWarning(
                "HMRC's receipt of a monthly return names another IRmark than the one sent"
              ).pipe(
                Effect.annotateLogs({
                  monthlyReturn: claimed.monthlyReturn.id,
                  correlationId: sent.correlationId,
                  sent: sent.irmark ?? "",
                  receipt: poll.receipt.irmark ?? "(none)"
                })
              )
            yield* credentialsAccepted(claimed, sent.credentialsSetAt, current)
            const receipt = new HmrcReceipt({
              correlationId: sent.correlationId,
              irmark: sent.irmark ?? "",
              message: poll.receipt.message,
              receivedAt: now,
              irmarkVerified
            })
            return {
              claimed,
              outcome: { _tag: "Accepted", at: now, receipt, gatewayTest: sent.gatewayTest },
              answeredUnder: sent
            }
          }
          case "Rejected":
            return { claimed, outcome: poll, answeredUnder: sent }
          case "Pending":
            return {
              claimed,
              outcome: {
                _tag: "Pending",
                nextAttemptAt: yield* inMillis(poll.acknowledgement.pollIntervalSeconds * 1000),
                endpoint: poll.acknowledgement.endpoint
              },
              answeredUnder: null
            }
          case "Failed":
            yield* Effect.logWarning("HMRC failed a monthly return's submission; it will be sent afresh").pipe(
              Effect.annotateLogs({ monthlyReturn: claimed.monthlyReturn.id, reason: poll.reason })
            )
            return {
              claimed,
              outcome: {
                _tag: "SendAgain",
                nextAttemptAt: yield* inMillis(Duration.toMillis(retryDelay(claimed.attempts + 1))),
                failedAttempt: true
              },
              answeredUnder: sent
            }
          case "Unknown":
            return yield* unknown(claimed, sent, poll.reason, current)
        }
      })

    /** Polls the recorded sending at its endpoint; polls carry no credentials, so none are needed. */
    const poll = (claimed: ClaimedReturn, sent: Sending, current: Option.Option<HmrcCredentials>) =>
      taxAuthority.pollReturn(sent).pipe(
        Effect.flatMap((polled) => outcomeOfPoll(claimed, sent, polled, current)),
        Effect.catchTags({
          CredentialsRefused: (refusal) => refused(claimed, refusedCredentialsSetAt(sent, current), refusal),
          TaxAuthorityUnavailable: (failure) => retry(claimed, failure)
        })
      )

    /**
     * Sends the return with the tenant's credentials, and records at once where HMRC answers it,
     * to be polled once the authority's interval passed (at once when it names none).
     */
    const send = (claimed: ClaimedReturn, stored: HmrcCredentials): Effect.Effect<SubmittedReturn> =>
      taxAuthority.sendReturn(claimed.monthlyReturn, stored.credentials).pipe(
        Effect.flatMap((sent) =>
          Effect.gen(function* () {
            if (sent._tag === "Rejected")
              return { claimed, outcome: sent, answeredUnder: null } satisfies SubmittedReturn
            const recorded = yield* recordSending(claimed, stored, sent)
            const { correlationId, endpoint, pollIntervalSeconds } = sent.acknowledgement
            const sending: Sending = {
              correlationId,
              endpoint,
              pollIntervalSeconds,
              irmark: sent.irmark,
              credentialsSetAt: stored.updatedAt,
              gatewayTest: sent.gatewayTest
            }
            if (recorded && pollIntervalSeconds === 0) return yield* poll(claimed, sending, Option.some(stored))
            return {
              claimed,
              outcome: { _tag: "Pending", nextAttemptAt: yield* inMillis(pollIntervalSeconds * 1000), endpoint },
              answeredUnder: null
            } satisfies SubmittedReturn
          })
        ),
        Effect.catchTags({
          CredentialsRefused: (refusal) => refused(claimed, stored.updatedAt, refusal),
          TaxAuthorityUnavailable: (failure) => retry(claimed, failure)
        })
      )

    /**
     * One leased return: polled at its recorded endpoint when it was sent; else sent now with the
     * tenant's credentials, or held when it has none HMRC takes.
     */
    const attempt = (claimed: ClaimedReturn): Effect.Effect<SubmittedReturn> =>
      Effect.gen(function* () {
        const current = yield* credentialsRepo.find(claimed.monthlyReturn.tenantId)
        if (claimed.sent !== null) return yield* poll(claimed, claimed.sent, current)
        return yield* Either.match(sendableCredentials(current), {
          onLeft: (reason) =>
            Effect.succeed(
              held(claimed, "Credentials", reason, Option.getOrNull(Option.map(current, (c) => c.updatedAt)))
            ),
          onRight: (stored) => send(claimed, stored)
        })
      }).pipe(Effect.withSpan("ReturnFiling.attempt"))

    /**
     * Records the outcome and, with an answer, the event that announces it (and for an accepted
     * return filed for real its statements: mailed, and delivered to connected subcontractors),
     * in one transaction; nothing when the lease was taken over. Only an answer so recorded is
     * then deleted at the tax authority: until then, it is what a filer taking over the return
     * polls for.
     */
    const recordOne = ({ answeredUnder, claimed, heldFor, outcome }: SubmittedReturn) =>
      Effect.gen(function* () {
        if (outcome._tag === "Retry" || outcome._tag === "Pending")
          return yield* transaction(repo.record(claimed, outcome))
        if (outcome._tag === "SendAgain") {
          const recorded = yield* transaction(repo.record(claimed, outcome))
          if (recorded && answeredUnder !== null) yield* deleteAnswer(claimed, answeredUnder)
          return recorded
        }
        if (outcome._tag === "Held")
          return yield* transaction(
            outcome.heldFor === "Credentials"
              ? recordHeld(claimed, outcome, heldFor ?? null)
              : repo.record(claimed, outcome)
          )
        const result = answered(claimed.monthlyReturn, outcome)
        const prepared = yield* statements.prepare(result)
        const recorded = yield* transaction(
          Effect.gen(function* () {
            const recorded = yield* repo.record(claimed, outcome)
            if (!recorded) return false
            const type = outcome._tag === "Accepted" ? "monthly-return.accepted" : "monthly-return.rejected"
            yield* outbox.record(result.tenantId, [{ type, data: monthlyReturnEventJson(result) }])
            yield* statements.record(result, prepared)
            return true
          })
        )
        if (recorded && answeredUnder !== null) yield* deleteAnswer(claimed, answeredUnder)
        return recorded
      })

    /**
     * Records a return Held for credentials, unless the tenant's credentials were set or replaced
     * since it was held for them (then it is due again at once): the credentials are locked while
     * it is recorded, so a replacement made at the same time releases it, or is seen here.
     */
    const recordHeld = (claimed: ClaimedReturn, outcome: ReturnOutcome & { _tag: "Held" }, heldFor: Date | null) =>
      Effect.gen(function* () {
        const now = yield* clock.now
        const current = yield* credentialsRepo.findForUpdate(claimed.monthlyReturn.tenantId)
        const currentSetAt = Option.getOrNull(Option.map(current, (c) => c.updatedAt))
        const replaced = currentSetAt?.getTime() !== heldFor?.getTime()
        return yield* repo.record(
          claimed,
          replaced ? { _tag: "SendAgain", nextAttemptAt: now, failedAttempt: false } : outcome
        )
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
