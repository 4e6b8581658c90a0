import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import type { Acknowledgement, SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import {
  CredentialsRefused,
  type TaxAuthorityFailure,
  TaxAuthorityUnavailable
} from "@cisbook/core/taxauthority/TaxAuthority"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Effect, Option, Ref } from "effect"
import { errorKind, type GovTalkAnswer, type GovTalkError, reasonOf, statusRecords } from "./GovTalkAnswer.js"
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
  | { readonly _tag: "Pending"; readonly retryAfterMs: number }
  /** To be polled under this acknowledgement from now on (HMRC holds the message there). */
  | { readonly _tag: "Moved"; readonly acknowledgement: Acknowledgement }
  /** HMRC holds nothing of the message, or asked for it to be sent again: it is to be submitted afresh. */
  | { readonly _tag: "SendAgain" }

/**
 * A GovTalk message's life with HMRC's Transaction Engine, whatever its class: submitted at the
 * submission URL and acknowledged with a correlation id and a ResponseEndPoint, which the caller
 * records; polled and deleted only at that endpoint, never at the submission URL. Errors are
 * classed as HMRC's own CIS service does (GovTalkErrorStatusClassifier): 1046 refuses the
 * credentials; 1000, 2005 and 3000, a connection that fails and a 5xx are the authority being
 * unavailable (or, at a poll, a request to send the message again); any other error refuses the
 * message with every error's text. Submissions and data requests go with the tenant's own
 * Government Gateway credentials; polls and deletes, as HMRC's own, carry none. An error at a poll
 * is never taken for a refusal by itself: HMRC's data request (`list`) says whether it holds the
 * message's answer as an error (the refusal), holds it under another correlation id, or holds
 * nothing (the message is sent again).
 */
export const govTalkProtocol = (options: GovTalkOptions) =>
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
          govTalkMessage({ function: "poll", class: messageClass, correlationId: sent.correlationId }, options.software)
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
      Effect.flatMap(endpointOf(messageClass, sent), (endpoint) => deleteAt(messageClass, sent.correlationId, endpoint))

    /** Sends a submission or a data request to the submission URL. */
    const submit = (message: string) => exchange(options.url, message)

    return {
      submit,
      senderOf,
      notRefusal,
      acknowledgementOf,
      dropRefused,
      heldAt,
      findSent,
      poll,
      deleteAnswer
    } as const
  })

export type GovTalkProtocol = Effect.Effect.Success<ReturnType<typeof govTalkProtocol>>
