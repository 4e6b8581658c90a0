import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { SCHEME_NOT_SET } from "@cisbook/core/returns/ReturnRules"
import type { Acknowledgement, SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import {
  CredentialsRefused,
  TaxAuthority,
  type TaxAuthorityFailure,
  TaxAuthorityUnavailable
} from "@cisbook/core/taxauthority/TaxAuthority"
import type { ReturnPoll, ReturnSent, ReturnSubmission, SentReturn } from "@cisbook/core/taxauthority/ReturnSubmission"
import type {
  VerificationAnswer,
  VerificationPoll,
  VerificationRequest,
  VerificationSent
} from "@cisbook/core/taxauthority/Verification"
import type { TaxTreatment } from "@cisbook/core/contacts/Contact"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Clock, Effect, Layer, Option, Ref } from "effect"
import { createHash } from "node:crypto"
import { cis300Return, payeScheme, transactionIdOf } from "../cis300/Cis300Return.js"
import { cis300Problems } from "../cis300/Cis300Rules.js"
import { cis300Envelope } from "./Cis300Envelope.js"
import { cisVerifyEnvelope, taxMonthEnd } from "./CisVerifyEnvelope.js"
import {
  cisResponseSubcontractors,
  errorKind,
  type GovTalkAnswer,
  type GovTalkError,
  reasonOf,
  receiptMessage,
  statusRecords,
  text
} from "./GovTalkAnswer.js"
import { type GovTalkClass, govTalkMessage, type GovTalkSender, type GovTalkSoftware } from "./GovTalkMessage.js"
import type { IrSender } from "./IrHeader.js"
import { govTalkExchange } from "./GovTalkTransport.js"
import { carriedIrMark } from "./IrMark.js"
import { apiVerificationNumber } from "./VerificationNumber.js"

export interface GovTalkOptions {
  /** The Transaction Engine's submission endpoint: submissions and data requests go there, never polls or deletes. */
  readonly url: string
  /** The software's ChannelRouting and GatewayTest; each message's credentials are its tenant's. */
  readonly software: GovTalkSoftware
  /** Headers sent on every exchange: the server's mark on calls to its own Transaction Engine. */
  readonly headers?: Readonly<Record<string, string>>
}

const RETURN: GovTalkClass = "IR-CIS-CIS300MR"
const VERIFY: GovTalkClass = "IR-CIS-VERIFY"

const unavailable = (message: string) => new TaxAuthorityUnavailable({ message })

/** The IRheader's `Sender` for the filer: an agent files as `Agent`. */
const irSenderOf = (credentials: SenderCredentials): IrSender => (credentials.filer === "Agent" ? "Agent" : "Company")

const treatments: Record<string, TaxTreatment> = { gross: "Gross", net: "Net", unmatched: "Unmatched" }

/** A verification's TransactionID: 32 hexadecimal digits naming its request (GovTalk's TransactionID takes no more). */
export const verificationTransactionId = (reference: string) =>
  createHash("sha1").update(reference).digest("hex").slice(0, 32).toUpperCase()

/** What a poll came to, before it is read as a return's or a verification's. */
type Polled =
  | { readonly _tag: "Answer"; readonly body: Record<string, unknown> }
  | { readonly _tag: "Refusal"; readonly reason: string }
  | { readonly _tag: "Pending"; readonly retryAfterMs: number }
  /** To be polled under this acknowledgement from now on (HMRC holds the message there). */
  | { readonly _tag: "Moved"; readonly acknowledgement: Acknowledgement }
  /** HMRC holds nothing of the message, or asked for it to be sent again: it is to be submitted afresh. */
  | { readonly _tag: "SendAgain" }

/**
 * The tax authority over HMRC's Transaction Engine (GovTalk), for HMRC itself, its External Test
 * Service, or the local Transaction Engine. A message (a return or a verification) is submitted
 * at the submission URL and acknowledged with a correlation id and a ResponseEndPoint, which the
 * caller records; it is polled and deleted only at that endpoint, never at the submission URL.
 * Errors are classed as HMRC's own CIS service does (GovTalkErrorStatusClassifier): 1046 refuses
 * the credentials; 1000, 2005 and 3000, a connection that fails and a 5xx are the authority
 * being unavailable (or, at a poll, a request to send the message again); any other error refuses
 * the message with every error's text. Submissions and data requests go with the tenant's own
 * Government Gateway credentials; polls and deletes, as HMRC's own, carry none. An error at a poll is never taken for a refusal by itself:
 * HMRC's data request (`list`) says whether it holds the message's answer as an error (the
 * refusal), holds it under another correlation id, or holds nothing (the message is sent again).
 */
export const govTalkTaxAuthority = (options: GovTalkOptions) =>
  Layer.effect(
    TaxAuthority,
    Effect.gen(function* () {
      const http = HttpClient.mapRequest(
        yield* HttpClient.HttpClient,
        HttpClientRequest.setHeaders(options.headers ?? {})
      )
      /**
       * The response endpoint HMRC last named for each class, for a message found by a data request
       * whose answer names none (HMRC's endpoint is the same for every message of a class).
       */
      const lastEndpoint = yield* Ref.make(new Map<GovTalkClass, string>())

      const exchange = (url: string, message: string) =>
        Effect.provideService(govTalkExchange(url, message), HttpClient.HttpClient, http).pipe(
          Effect.tap((answer) => {
            const messageClass = /<Class>([^<]*)<\/Class>/.exec(message)?.[1] as GovTalkClass | undefined
            const endpoint = answer.pollUrl
            return endpoint === null || messageClass === undefined
              ? Effect.void
              : Ref.update(lastEndpoint, (all) => new Map(all).set(messageClass, endpoint))
          })
        )

      /** The software with the tenant's credentials: who a submission or data request is from. */
      const senderOf = (credentials: SenderCredentials): GovTalkSender => ({
        ...options.software,
        senderId: credentials.gatewayUserId,
        password: credentials.password
      })

      /** An error answer that is not a refusal fails: the credentials refused, or the authority unavailable for now. */
      const notRefusal = (errors: ReadonlyArray<GovTalkError>): Effect.Effect<never, TaxAuthorityFailure> =>
        errorKind(errors) === "AuthenticationFailure"
          ? Effect.fail(new CredentialsRefused({ message: `HMRC refused the credentials: ${reasonOf(errors)}` }))
          : Effect.fail(unavailable(`HMRC could not take it for now: ${reasonOf(errors)}`))

      const acknowledgementOf = (
        answer: Extract<GovTalkAnswer, { _tag: "Acknowledgement" }>
      ): Effect.Effect<Acknowledgement, TaxAuthorityUnavailable> =>
        answer.pollUrl === null
          ? Effect.fail(unavailable(`HMRC's acknowledgement of ${answer.correlationId} named no ResponseEndPoint`))
          : Effect.succeed({
              correlationId: answer.correlationId,
              endpoint: answer.pollUrl,
              pollIntervalSeconds: answer.pollIntervalSeconds
            })

      /** Deletes a message's answer at its endpoint; unavailable when HMRC did not delete it. */
      const deleteAt = (messageClass: GovTalkClass, correlationId: string, endpoint: string) =>
        Effect.flatMap(
          exchange(
            endpoint,
            govTalkMessage({ function: "delete", class: messageClass, correlationId }, options.software)
          ),
          (answer) =>
            answer._tag === "Error"
              ? Effect.fail(unavailable(`HMRC did not delete ${correlationId}: ${reasonOf(answer.errors)}`))
              : Effect.void
        )

      /** Deletes a refused submission's answer where HMRC named; a failure to is only logged (HMRC removes it in time). */
      const dropRefused = (messageClass: GovTalkClass, answer: Extract<GovTalkAnswer, { _tag: "Error" }>) =>
        answer.correlationId === "" || answer.pollUrl === null
          ? Effect.void
          : deleteAt(messageClass, answer.correlationId, answer.pollUrl).pipe(
              Effect.catchAll((error) =>
                Effect.logWarning(`HMRC's answer to ${answer.correlationId} could not be deleted: ${error.message}`)
              )
            )

      /** What HMRC holds of a class (its data request, `list`, at the submission URL), and where it answers them. */
      const heldOf = (messageClass: GovTalkClass, transactionId: string, credentials: SenderCredentials) =>
        Effect.gen(function* () {
          const answer = yield* exchange(
            options.url,
            govTalkMessage({ function: "list", class: messageClass }, senderOf(credentials))
          )
          if (answer._tag === "Error" && errorKind(answer.errors) === "AuthenticationFailure")
            return yield* notRefusal(answer.errors)
          if (answer._tag !== "Response")
            return yield* Effect.fail(
              unavailable(
                `HMRC did not list what it holds: ${answer._tag === "Error" ? reasonOf(answer.errors) : "acknowledged"}`
              )
            )
          const endpoint = answer.pollUrl ?? (yield* Ref.get(lastEndpoint)).get(messageClass) ?? null
          return {
            held: statusRecords(answer.body).filter((r) => r.transactionId === transactionId),
            endpoint
          }
        })

      const heldAt = (correlationId: string, endpoint: string | null) =>
        endpoint === null
          ? Effect.fail(unavailable(`HMRC holds ${correlationId} but named no ResponseEndPoint to poll it at`))
          : Effect.succeed<Acknowledgement>({ correlationId, endpoint, pollIntervalSeconds: 0 })

      /** The message HMRC holds under the TransactionID from an earlier submission that did not fail, if any. */
      const findSent = (messageClass: GovTalkClass, transactionId: string, credentials: SenderCredentials) =>
        Effect.gen(function* () {
          const { endpoint, held } = yield* heldOf(messageClass, transactionId, credentials)
          const sent = held.find((r) => r.status !== "SUBMISSION_ERROR")
          return sent === undefined ? Option.none() : Option.some(yield* heldAt(sent.correlationId, endpoint))
        })

      /**
       * After an error at a poll (or a message recorded with no endpoint): what HMRC's data request
       * says. The message's own answer held as an error is its refusal (its errors are the poll's);
       * held otherwise, it is polled again later (at the endpoint the data request names, when it
       * had none); another submission of it held and not failed is polled from now on; nothing
       * held (or only failed submissions, after a recoverable error), it is sent again.
       */
      const afterPollError = (
        messageClass: GovTalkClass,
        sent: SentMessage,
        transactionId: string,
        errors: ReadonlyArray<GovTalkError>,
        credentials: SenderCredentials
      ) =>
        Effect.gen(function* () {
          const { endpoint, held } = yield* heldOf(messageClass, transactionId, credentials)
          const own = held.find((r) => r.correlationId === sent.correlationId)
          const recoverable = errorKind(errors) === "Recoverable"
          if (own !== undefined && !recoverable) {
            if (sent.endpoint === null)
              return { _tag: "Moved", acknowledgement: yield* heldAt(own.correlationId, endpoint) } as const
            if (own.status === "SUBMISSION_ERROR") return { _tag: "Refusal", reason: reasonOf(errors) } as const
            return yield* Effect.fail(
              unavailable(`HMRC holds ${sent.correlationId} but its poll failed: ${reasonOf(errors)}`)
            )
          }
          const other = held.find((r) => r.correlationId !== sent.correlationId && r.status !== "SUBMISSION_ERROR")
          if (other !== undefined)
            return { _tag: "Moved", acknowledgement: yield* heldAt(other.correlationId, endpoint) } as const
          return { _tag: "SendAgain" } as const
        })

      /** Polls a message at its recorded endpoint (`Qualifier` poll, an empty body). */
      const poll = (
        messageClass: GovTalkClass,
        sent: SentMessage,
        transactionId: string,
        credentials: SenderCredentials
      ): Effect.Effect<Polled, TaxAuthorityFailure> =>
        Effect.gen(function* () {
          if (sent.endpoint === null) return yield* afterPollError(messageClass, sent, transactionId, [], credentials)
          const answer = yield* exchange(
            sent.endpoint,
            govTalkMessage(
              { function: "poll", class: messageClass, correlationId: sent.correlationId },
              options.software
            )
          )
          switch (answer._tag) {
            case "Acknowledgement":
              return answer.pollUrl !== null && answer.pollUrl !== sent.endpoint
                ? ({ _tag: "Moved", acknowledgement: yield* acknowledgementOf(answer) } as const)
                : ({ _tag: "Pending", retryAfterMs: answer.pollIntervalSeconds * 1000 } as const)
            case "Response":
              return { _tag: "Answer", body: answer.body } as const
            case "Error":
              if (errorKind(answer.errors) === "AuthenticationFailure") return yield* notRefusal(answer.errors)
              return yield* afterPollError(messageClass, sent, transactionId, answer.errors, credentials)
          }
        })

      /** The return's GovTalk message and the IRmark it carries, or the rules of HMRC's it breaks. */
      const returnMessage = (submission: ReturnSubmission, credentials: SenderCredentials) => {
        const scheme = submission.contractor.scheme
        if (scheme === null) return { _tag: "Rejected", reason: SCHEME_NOT_SET } as const
        const document = cis300Return(submission, payeScheme(scheme), irSenderOf(credentials))
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
          senderOf(credentials)
        )
        return { _tag: "Message", message, irmark: carriedIrMark(message) ?? "" } as const
      }

      const sendReturn = (
        submission: ReturnSubmission,
        credentials: SenderCredentials
      ): Effect.Effect<ReturnSent, TaxAuthorityFailure> =>
        Effect.gen(function* () {
          const built = returnMessage(submission, credentials)
          if (built._tag === "Rejected") return built
          const answer = yield* exchange(options.url, built.message)
          switch (answer._tag) {
            case "Acknowledgement":
              return { _tag: "Acknowledged", acknowledgement: yield* acknowledgementOf(answer), irmark: built.irmark }
            case "Response":
              // Answered at once (HMRC does not, for CIS): polled at its endpoint, it answers the same.
              return {
                _tag: "Acknowledged",
                acknowledgement: yield* heldAt(answer.correlationId, answer.pollUrl),
                irmark: built.irmark
              }
            case "Error":
              if (errorKind(answer.errors) !== "Refusal") return yield* notRefusal(answer.errors)
              yield* dropRefused(RETURN, answer)
              return { _tag: "Rejected", reason: reasonOf(answer.errors) } as const
          }
        })

      const sentReturn = (
        submission: ReturnSubmission,
        credentials: SenderCredentials,
        acknowledgement: Acknowledgement
      ): SentReturn => {
        const built = returnMessage(submission, credentials)
        return { _tag: "Acknowledged", acknowledgement, irmark: built._tag === "Message" ? built.irmark : "" }
      }

      const findSentReturn = (submission: ReturnSubmission, credentials: SenderCredentials) =>
        Effect.map(
          findSent(RETURN, transactionIdOf(submission.id), credentials),
          Option.map((a) => sentReturn(submission, credentials, a))
        )

      const pollReturn = (
        sent: SentMessage,
        submission: ReturnSubmission,
        credentials: SenderCredentials
      ): Effect.Effect<ReturnPoll, TaxAuthorityFailure> =>
        Effect.gen(function* () {
          const polled = yield* poll(RETURN, sent, transactionIdOf(submission.id), credentials)
          switch (polled._tag) {
            // The answer stays at HMRC until the filer, having recorded it, deletes it (deleteReturnAnswer).
            case "Answer":
              return { _tag: "Accepted", message: receiptMessage(polled.body) } as const
            case "Refusal":
              return { _tag: "Rejected", reason: polled.reason } as const
            case "Pending":
              return polled
            case "Moved":
              return {
                _tag: "Resent",
                sent: sentReturn(submission, credentials, polled.acknowledgement),
                retryAfterMs: 0
              } as const
            case "SendAgain": {
              const again = yield* sendReturn(submission, credentials)
              if (again._tag === "Rejected") return again
              return {
                _tag: "Resent",
                sent: again,
                retryAfterMs: again.acknowledgement.pollIntervalSeconds * 1000
              } as const
            }
          }
        })

      /**
       * The endpoint of a recorded message, or, for one recorded without, the one HMRC last named
       * for its class (a delete carries no credentials to ask HMRC's data request with).
       */
      const endpointOf = (messageClass: GovTalkClass, sent: SentMessage) =>
        sent.endpoint !== null
          ? Effect.succeed(sent.endpoint)
          : Effect.flatMap(Ref.get(lastEndpoint), (all) => {
              const endpoint = all.get(messageClass)
              return endpoint === undefined
                ? Effect.fail(unavailable(`HMRC named no ResponseEndPoint to delete ${sent.correlationId} at`))
                : Effect.succeed(endpoint)
            })

      const deleteAnswer = (messageClass: GovTalkClass) => (sent: SentMessage) =>
        Effect.flatMap(endpointOf(messageClass, sent), (endpoint) =>
          deleteAt(messageClass, sent.correlationId, endpoint)
        )

      /** HMRC's CISresponse for the one subcontractor asked about, as the contact's verification. */
      const verificationOf = (body: Record<string, unknown>): VerificationAnswer => {
        const [subcontractor] = cisResponseSubcontractors(body)
        const number = text(subcontractor?.["VerificationNumber"])
        const taxTreatment = treatments[text(subcontractor?.["TaxTreatment"]).toLowerCase()]
        if (subcontractor === undefined || number === "" || taxTreatment === undefined)
          return { _tag: "Refused", message: "HMRC's answer named no verification number and tax treatment." }
        return { _tag: "Matched", verificationNumber: apiVerificationNumber(number), taxTreatment }
      }

      const sendVerification = (
        reference: string,
        request: VerificationRequest,
        credentials: SenderCredentials
      ): Effect.Effect<VerificationSent, TaxAuthorityFailure> =>
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
              transactionId: verificationTransactionId(reference),
              keys: scheme,
              irEnvelope: cisVerifyEnvelope({
                contractorUtr: contractor.utr,
                scheme,
                subcontractor,
                periodEnd: taxMonthEnd(new Date(now)),
                sender: irSenderOf(credentials)
              })
            },
            senderOf(credentials)
          )
          const answer = yield* exchange(options.url, message)
          switch (answer._tag) {
            case "Acknowledgement":
              return { _tag: "Acknowledged", acknowledgement: yield* acknowledgementOf(answer) } as const
            case "Response":
              return {
                _tag: "Acknowledged",
                acknowledgement: yield* heldAt(answer.correlationId, answer.pollUrl)
              } as const
            case "Error":
              if (errorKind(answer.errors) !== "Refusal") return yield* notRefusal(answer.errors)
              yield* dropRefused(VERIFY, answer)
              return { _tag: "Refused", message: reasonOf(answer.errors) } as const
          }
        })

      const findSentVerification = (reference: string, credentials: SenderCredentials) =>
        findSent(VERIFY, verificationTransactionId(reference), credentials)

      const pollVerification = (
        sent: SentMessage,
        reference: string,
        request: VerificationRequest,
        credentials: SenderCredentials
      ): Effect.Effect<VerificationPoll, TaxAuthorityFailure> =>
        Effect.gen(function* () {
          const polled = yield* poll(VERIFY, sent, verificationTransactionId(reference), credentials)
          switch (polled._tag) {
            case "Answer":
              return verificationOf(polled.body)
            case "Refusal":
              return { _tag: "Refused", message: polled.reason } as const
            case "Pending":
              return polled
            case "Moved":
              return { _tag: "Resent", acknowledgement: polled.acknowledgement, retryAfterMs: 0 } as const
            case "SendAgain": {
              const again = yield* sendVerification(reference, request, credentials)
              if (again._tag !== "Acknowledged") return again
              return {
                _tag: "Resent",
                acknowledgement: again.acknowledgement,
                retryAfterMs: again.acknowledgement.pollIntervalSeconds * 1000
              } as const
            }
          }
        })

      return TaxAuthority.of({
        sendReturn,
        findSentReturn,
        pollReturn,
        deleteReturnAnswer: deleteAnswer(RETURN),
        sendVerification,
        findSentVerification,
        pollVerification,
        deleteVerificationAnswer: deleteAnswer(VERIFY)
      })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
