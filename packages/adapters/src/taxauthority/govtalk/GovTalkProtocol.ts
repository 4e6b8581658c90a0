import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import type { Acknowledgement, Listed, NoAnswerYet, SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import {
  CredentialsRefused,
  type TaxAuthorityFailure,
  TaxAuthorityUnavailable
} from "@cisbook/core/taxauthority/TaxAuthority"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Duration, Effect, Schedule } from "effect"
import {
  errorKind,
  type GovTalkAnswer,
  type GovTalkError,
  isUnknownCorrelation,
  listedCorrelationIds,
  reasonOf
} from "./GovTalkAnswer.js"
import { type GovTalkClass, govTalkMessage, type GovTalkSender, type GovTalkSoftware } from "./GovTalkMessage.js"
import type { IrSender } from "./IrHeader.js"
import { govTalkExchange } from "./GovTalkTransport.js"

export interface GovTalkOptions {
  /** The Transaction Engine's submission endpoint: submissions and data requests go there, never polls or deletes. */
  readonly url: string
  /** The software's ChannelRouting and GatewayTest; each message's credentials are its tenant's. */
  readonly software: GovTalkSoftware
  /** Headers sent on every exchange: the server's mark on calls to its own Transaction Engine. */
  readonly headers?: Readonly<Record<string, string>>
}

export const unavailable = (message: string) => new TaxAuthorityUnavailable({ message })

/** The IRheader's `Sender` for the filer: an agent files as `Agent`. */
export const irSenderOf = (credentials: SenderCredentials): IrSender =>
  credentials.filer === "Agent" ? "Agent" : "Company"

/** What a poll came to, before it is read as a return's or a verification's. */
export type Polled =
  | { readonly _tag: "Answer"; readonly body: Record<string, unknown> }
  | { readonly _tag: "Refusal"; readonly reason: string }
  | NoAnswerYet

/** HMRC's data request is tried three times when the Transaction Engine cannot be reached: at once, after 1 s and 2 s more. */
const DATA_REQUEST_RETRIES = Schedule.exponential(Duration.seconds(1)).pipe(Schedule.intersect(Schedule.recurs(2)))

/**
 * A GovTalk message's life with HMRC's Transaction Engine, whatever its class: submitted at the
 * submission URL and acknowledged with a correlation id and a ResponseEndPoint, which the caller
 * records; polled and deleted only at that endpoint (the one the last acknowledgement named),
 * never at the submission URL. Errors are read as HMRC's own CIS service reads them
 * (GovTalkErrorStatusClassifier): 1046 refuses the credentials; 1000, 2005 and 3000, a
 * connection that fails and a 5xx are the authority being unavailable (at a poll, HMRC failing
 * the submission, which is sent afresh); any other error refuses the message with every error's
 * text. At a poll, 2000 (a correlation id HMRC no longer knows) leaves the outcome unknown, which
 * HMRC's data request (`list`, with the tenant's credentials, at the submission URL) settles:
 * whether a StatusRecord names the correlation id, whatever its Status. Submissions and data
 * requests go with the tenant's own Government Gateway credentials; polls and deletes, as HMRC's
 * own, carry none.
 */
export const govTalkProtocol = (options: GovTalkOptions) =>
  Effect.gen(function* () {
    const http = HttpClient.mapRequest(
      yield* HttpClient.HttpClient,
      HttpClientRequest.setHeaders(options.headers ?? {})
    )

    const exchange = (url: string, message: string) =>
      Effect.provideService(govTalkExchange(url, message), HttpClient.HttpClient, http)

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

    /**
     * A submission answered at once with its response (HMRC does not, for CIS): it is polled at
     * the endpoint the answer names, at once, and answers the same there.
     */
    const answeredAt = (answer: Extract<GovTalkAnswer, { _tag: "Response" }>) =>
      answer.pollUrl === null
        ? Effect.fail(unavailable(`HMRC answered ${answer.correlationId} at once and named no ResponseEndPoint`))
        : Effect.succeed<Acknowledgement>({
            correlationId: answer.correlationId,
            endpoint: answer.pollUrl,
            pollIntervalSeconds: 0
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

    /** Polls a message at its recorded endpoint (`Qualifier` poll, an empty body). */
    const poll = (messageClass: GovTalkClass, sent: SentMessage): Effect.Effect<Polled, TaxAuthorityFailure> =>
      Effect.gen(function* () {
        if (sent.endpoint === null)
          return {
            _tag: "Unknown",
            reason: `${sent.correlationId} was recorded before response endpoints were kept: there is none to poll it at`
          } as const
        const answer = yield* exchange(
          sent.endpoint,
          govTalkMessage({ function: "poll", class: messageClass, correlationId: sent.correlationId }, options.software)
        )
        switch (answer._tag) {
          case "Acknowledgement":
            return {
              _tag: "Pending",
              acknowledgement: {
                correlationId: sent.correlationId,
                endpoint: answer.pollUrl ?? sent.endpoint,
                pollIntervalSeconds: answer.pollIntervalSeconds
              }
            } as const
          case "Response":
            return { _tag: "Answer", body: answer.body } as const
          case "Error":
            if (errorKind(answer.errors) === "AuthenticationFailure")
              return yield* Effect.fail(
                new CredentialsRefused({ message: `HMRC refused the credentials: ${reasonOf(answer.errors)}` })
              )
            if (isUnknownCorrelation(answer.errors))
              return { _tag: "Unknown", reason: reasonOf(answer.errors) } as const
            if (errorKind(answer.errors) === "Recoverable")
              return { _tag: "Failed", reason: reasonOf(answer.errors) } as const
            return { _tag: "Refusal", reason: reasonOf(answer.errors) } as const
        }
      })

    /**
     * HMRC's data request (`list` of the message's class, with the tenant's credentials, at the
     * submission URL): whether a StatusRecord names the message's correlation id. The Transaction
     * Engine not answering is tried again (DATA_REQUEST_RETRIES) before it counts as unavailable;
     * an error answer, or an acknowledgement instead of the list, is a refusal.
     */
    const lookUp = (
      messageClass: GovTalkClass,
      sent: SentMessage,
      credentials: SenderCredentials
    ): Effect.Effect<Listed, TaxAuthorityUnavailable> =>
      exchange(options.url, govTalkMessage({ function: "list", class: messageClass }, senderOf(credentials))).pipe(
        Effect.retry(DATA_REQUEST_RETRIES),
        Effect.map((answer): Listed => {
          switch (answer._tag) {
            case "Response":
              return listedCorrelationIds(answer.body).includes(sent.correlationId)
                ? { _tag: "Recorded", endpoint: answer.pollUrl }
                : { _tag: "NotRecorded" }
            case "Error":
              return { _tag: "Refused", reason: reasonOf(answer.errors) }
            case "Acknowledgement":
              return { _tag: "Refused", reason: "HMRC acknowledged its data request instead of answering it" }
          }
        })
      )

    const deleteAnswer = (messageClass: GovTalkClass) => (sent: SentMessage) =>
      sent.endpoint === null
        ? Effect.fail(unavailable(`HMRC named no ResponseEndPoint to delete ${sent.correlationId} at`))
        : deleteAt(messageClass, sent.correlationId, sent.endpoint)

    /** Sends a submission to the submission URL. */
    const submit = (message: string) => exchange(options.url, message)

    return {
      software: options.software,
      submit,
      senderOf,
      notRefusal,
      acknowledgementOf,
      answeredAt,
      dropRefused,
      poll,
      lookUp,
      deleteAnswer
    } as const
  })

export type GovTalkProtocol = Effect.Effect.Success<ReturnType<typeof govTalkProtocol>>
