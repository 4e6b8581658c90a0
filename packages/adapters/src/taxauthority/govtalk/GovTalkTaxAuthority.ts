import type { MonthlyReturnId } from "@cisbook/core/Ids"
import { TaxAuthority, TaxAuthorityUnavailable } from "@cisbook/core/taxauthority/TaxAuthority"
import type { ReturnPoll, ReturnSent, ReturnSubmission } from "@cisbook/core/taxauthority/ReturnSubmission"
import type { VerificationAnswer, VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import type { TaxTreatment } from "@cisbook/core/contacts/Contact"
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Clock, Duration, Effect, Layer, Option, Ref } from "effect"
import { cis300Return, payeScheme, transactionIdOf } from "../cis300/Cis300Return.js"
import { cis300Problems } from "../cis300/Cis300Rules.js"
import { cis300Envelope } from "./Cis300Envelope.js"
import { cisVerifyEnvelope, taxMonthEnd } from "./CisVerifyEnvelope.js"
import {
  cisResponseSubcontractors,
  type GovTalkAnswer,
  isRecoverable,
  reasonOf,
  statusRecords,
  text
} from "./GovTalkAnswer.js"
import { type GovTalkClass, govTalkMessage, type GovTalkSender } from "./GovTalkMessage.js"
import { govTalkExchange } from "./GovTalkTransport.js"
import { apiVerificationNumber } from "./VerificationNumber.js"

export interface GovTalkOptions {
  /** The Transaction Engine's submission endpoint. */
  readonly url: string
  readonly sender: GovTalkSender
  /** The longest a verification's submit → poll → delete may take in one attempt. */
  readonly verificationTimeout?: Duration.Duration
}

const RETURN: GovTalkClass = "IR-CIS-CIS300MR"
const VERIFY: GovTalkClass = "IR-CIS-VERIFY"

const unavailable = (message: string) => new TaxAuthorityUnavailable({ message })

const treatments: Record<string, TaxTreatment> = { gross: "Gross", net: "Net", unmatched: "Unmatched" }

/**
 * The tax authority over HMRC's Transaction Engine (GovTalk), for HMRC itself, its Test in Live
 * service, or the local Transaction Engine: a return is submitted once and acknowledged with a
 * correlation id, polled no sooner than the PollInterval HMRC named, and its answer deleted when
 * the filer asks, once it recorded it; a verification runs the whole exchange within one call. HMRC's errors 1000, 2005 and 3000, a
 * connection that fails and a 5xx are the authority being unavailable (tried again later); any
 * other error answer refuses the return or verification with every error's text.
 */
export const govTalkTaxAuthority = (options: GovTalkOptions) =>
  Layer.effect(
    TaxAuthority,
    Effect.gen(function* () {
      const http = yield* HttpClient.HttpClient
      /** When, and where, each correlation id may be polled next (as the last acknowledgement said). */
      const nextPoll = yield* Ref.make(new Map<string, { readonly at: number; readonly url: string }>())
      const verificationTimeout = options.verificationTimeout ?? Duration.seconds(60)

      const exchange = (url: string, message: string) =>
        Effect.provideService(govTalkExchange(url, message), HttpClient.HttpClient, http)

      const remember = (answer: Extract<GovTalkAnswer, { _tag: "Acknowledgement" }>) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Ref.update(nextPoll, (all) =>
            new Map(all).set(answer.correlationId, {
              at: now + answer.pollIntervalSeconds * 1000,
              url: answer.pollUrl ?? options.url
            })
          )
        )

      /** Deletes an answered message at HMRC; unavailable when HMRC did not delete it. */
      const deleteAnswer = (messageClass: GovTalkClass, correlationId: string) =>
        exchange(
          options.url,
          govTalkMessage({ function: "delete", class: messageClass, correlationId }, options.sender)
        ).pipe(
          Effect.tap(() =>
            Ref.update(nextPoll, (all) => {
              const rest = new Map(all)
              rest.delete(correlationId)
              return rest
            })
          ),
          Effect.flatMap((answer) =>
            answer._tag === "Error"
              ? Effect.fail(unavailable(`HMRC did not delete ${correlationId}: ${reasonOf(answer.errors)}`))
              : Effect.void
          )
        )

      /** Deletes an answered message at HMRC; a failure to is only logged (HMRC removes it in time). */
      const remove = (messageClass: GovTalkClass, correlationId: string) =>
        deleteAnswer(messageClass, correlationId).pipe(
          Effect.catchAll((error) =>
            Effect.logWarning(`HMRC's answer to ${correlationId} could not be deleted: ${error.message}`)
          )
        )

      /** The final answer's errors: recoverable ones make it unavailable, others refuse it (after deleting it). */
      const refusal = (messageClass: GovTalkClass, answer: Extract<GovTalkAnswer, { _tag: "Error" }>) =>
        isRecoverable(answer.errors)
          ? Effect.fail(unavailable(`HMRC could not take it for now: ${reasonOf(answer.errors)}`))
          : Effect.as(
              answer.correlationId === "" ? Effect.void : remove(messageClass, answer.correlationId),
              reasonOf(answer.errors)
            )

      const sendReturn = (submission: ReturnSubmission): Effect.Effect<ReturnSent, TaxAuthorityUnavailable> =>
        Effect.gen(function* () {
          const scheme = submission.contractor.scheme
          if (scheme === null)
            return { _tag: "Rejected", reason: "The contractor's CIS scheme registration is not set." } as const
          const document = cis300Return(submission, payeScheme(scheme))
          const problems = cis300Problems(document)
          if (problems.length > 0) return { _tag: "Rejected", reason: problems.join(" ") } as const
          const message = govTalkMessage(
            {
              function: "submit",
              class: RETURN,
              transactionId: document.transactionId,
              keys: document.scheme,
              irEnvelope: cis300Envelope(document)
            },
            options.sender
          )
          const answer = yield* exchange(options.url, message)
          switch (answer._tag) {
            case "Acknowledgement":
              yield* remember(answer)
              return { _tag: "Acknowledged", correlationId: answer.correlationId } as const
            case "Response":
              return { _tag: "Acknowledged", correlationId: answer.correlationId } as const
            case "Error":
              return { _tag: "Rejected", reason: yield* refusal(RETURN, answer) } as const
          }
        })

      /** What HMRC holds of a return (`list`): its submissions not yet deleted, oldest first. */
      const heldSubmissions = (id: MonthlyReturnId) =>
        Effect.gen(function* () {
          const answer = yield* exchange(
            options.url,
            govTalkMessage({ function: "list", class: RETURN }, options.sender)
          )
          if (answer._tag !== "Response")
            return yield* Effect.fail(
              unavailable(
                `HMRC did not list its returns: ${answer._tag === "Error" ? reasonOf(answer.errors) : "acknowledged"}`
              )
            )
          const transactionId = transactionIdOf(id)
          return statusRecords(answer.body).filter((r) => r.transactionId === transactionId)
        })

      const findSentReturn = (id: MonthlyReturnId) =>
        Effect.map(heldSubmissions(id), (held) => Option.fromNullable(held[0]?.correlationId))

      const pollOnce = (messageClass: GovTalkClass, correlationId: string) =>
        Effect.gen(function* () {
          const known = (yield* Ref.get(nextPoll)).get(correlationId)
          const now = yield* Clock.currentTimeMillis
          if (known !== undefined && now < known.at) return { _tag: "Wait", ms: known.at - now } as const
          const answer = yield* exchange(
            known?.url ?? options.url,
            govTalkMessage({ function: "poll", class: messageClass, correlationId }, options.sender)
          )
          if (answer._tag === "Acknowledgement") {
            yield* remember(answer)
            return { _tag: "Wait", ms: answer.pollIntervalSeconds * 1000 } as const
          }
          return answer
        })

      /**
       * A submission HMRC failed with a recoverable error (1000, 2005, 3000) is sent again, as HMRC
       * asks: the return submitted afresh under a new correlation id, unless HMRC already holds a
       * later submission of it that did not fail (sent by a filer that died before recording it).
       * The failed one is left for the filer to delete once it recorded the new correlation id.
       */
      const resend = (
        correlationId: string,
        submission: ReturnSubmission
      ): Effect.Effect<ReturnPoll, TaxAuthorityUnavailable> =>
        Effect.gen(function* () {
          const resent = (yield* heldSubmissions(submission.id)).find(
            (held) => held.correlationId !== correlationId && held.status !== "SUBMISSION_ERROR"
          )
          if (resent !== undefined)
            return { _tag: "Resent", correlationId: resent.correlationId, retryAfterMs: 0 } as const
          const sent = yield* sendReturn(submission)
          if (sent._tag === "Rejected") return sent
          const next = (yield* Ref.get(nextPoll)).get(sent.correlationId)
          const now = yield* Clock.currentTimeMillis
          return {
            _tag: "Resent",
            correlationId: sent.correlationId,
            retryAfterMs: Math.max(0, (next?.at ?? now) - now)
          } as const
        })

      const pollReturn = (
        correlationId: string,
        submission: ReturnSubmission
      ): Effect.Effect<ReturnPoll, TaxAuthorityUnavailable> =>
        Effect.gen(function* () {
          const polled = yield* pollOnce(RETURN, correlationId)
          switch (polled._tag) {
            case "Wait":
              return { _tag: "Pending", retryAfterMs: polled.ms } as const
            // The answer stays at HMRC until the filer, having recorded it, deletes it (deleteReturnAnswer).
            case "Response":
              return { _tag: "Accepted" } as const
            case "Error":
              if (isRecoverable(polled.errors)) return yield* resend(correlationId, submission)
              return { _tag: "Rejected", reason: reasonOf(polled.errors) } as const
          }
        })

      /** HMRC's CISresponse for the one subcontractor asked about, as the contact's verification. */
      const verificationOf = (body: Record<string, unknown>): VerificationAnswer => {
        const [subcontractor] = cisResponseSubcontractors(body)
        const number = text(subcontractor?.["VerificationNumber"])
        const taxTreatment = treatments[text(subcontractor?.["TaxTreatment"]).toLowerCase()]
        if (subcontractor === undefined || number === "" || taxTreatment === undefined)
          return { _tag: "Refused", message: "HMRC's answer named no verification number and tax treatment." }
        return { _tag: "Matched", verificationNumber: apiVerificationNumber(number), taxTreatment }
      }

      const verify = (request: VerificationRequest): Effect.Effect<VerificationAnswer, TaxAuthorityUnavailable> =>
        Effect.gen(function* () {
          const { contractor, subcontractor } = request
          if (contractor.utr === null)
            return {
              _tag: "Refused",
              message: "The contractor's own UTR (its CIS details) is needed to verify a subcontractor."
            } as const
          const scheme = payeScheme(contractor.scheme)
          const now = yield* Clock.currentTimeMillis
          const message = govTalkMessage(
            {
              function: "submit",
              class: VERIFY,
              transactionId: "",
              keys: scheme,
              irEnvelope: cisVerifyEnvelope({
                contractorUtr: contractor.utr,
                scheme,
                subcontractor,
                periodEnd: taxMonthEnd(new Date(now))
              })
            },
            options.sender
          )
          const sent = yield* exchange(options.url, message)
          if (sent._tag === "Error") return { _tag: "Refused", message: yield* refusal(VERIFY, sent) } as const
          if (sent._tag === "Acknowledgement") yield* remember(sent)
          let answer: GovTalkAnswer | { _tag: "Wait"; ms: number } =
            sent._tag === "Response" ? sent : { _tag: "Wait", ms: 0 }
          while (answer._tag === "Wait") {
            yield* Effect.sleep(Duration.millis(answer.ms))
            answer = yield* pollOnce(VERIFY, sent.correlationId)
          }
          if (answer._tag === "Error") return { _tag: "Refused", message: yield* refusal(VERIFY, answer) } as const
          yield* remove(VERIFY, sent.correlationId)
          return verificationOf(answer.body)
        }).pipe(
          Effect.timeoutFail({
            duration: verificationTimeout,
            onTimeout: () =>
              unavailable(`HMRC did not answer the verification within ${Duration.format(verificationTimeout)}`)
          })
        )

      const deleteReturnAnswer = (correlationId: string) => deleteAnswer(RETURN, correlationId)

      return TaxAuthority.of({ verify, sendReturn, findSentReturn, pollReturn, deleteReturnAnswer })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
