import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import type { Acknowledgement, Listed, NoAnswerYet, SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import {
  CredentialsRefused,
  TaxAuthority,
  type TaxAuthorityFailure,
  TaxAuthorityUnavailable
} from "@cisbook/core/taxauthority/TaxAuthority"
import type { ReturnPoll, ReturnSubmission, SentReturn } from "@cisbook/core/taxauthority/ReturnSubmission"
import type { VerificationAnswer, VerificationPoll, VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { Effect, Layer, Redacted, Ref } from "effect"

type Answer = (request: VerificationRequest) => VerificationAnswer | TaxAuthorityUnavailable

export const matchedNet: VerificationAnswer = {
  _tag: "Matched",
  verificationNumber: "V1234567890",
  taxTreatment: "Net"
}

/** The password the fake (as the sandbox's Transaction Engine) refuses: HMRC's authentication failure. */
export const REFUSED_PASSWORD = "refused"

const AUTHENTICATION_FAILURE =
  "Authentication Failure. The supplied user credentials failed validation for the requested service. (1046)"

const authenticationFailure = () => new CredentialsRefused({ message: AUTHENTICATION_FAILURE })

const refusedCredentials = (credentials: SenderCredentials) => Redacted.value(credentials.password) === REFUSED_PASSWORD

/** Where the fake answers what it took: not where it takes them. */
export const FAKE_RESPONSE_ENDPOINT = "memory://tax-authority/response"

/** What HMRC answers to a correlation id it no longer knows (GovTalk's 2000). */
export const UNKNOWN_CORRELATION = "Unknown CorrelationID (2000)"

/** The total deducted the fake (as the sandbox) rejects: £999.99. */
const REJECTED_TOTAL_DEDUCTED_PENCE = 99_999

/**
 * A poll answered, once, otherwise than by the message's state: HMRC no longer knowing the
 * correlation id (2000), failing the submission (a recoverable error), or acknowledging it again
 * at another endpoint (the message is answered there from then on).
 */
export type PollStep =
  | { readonly _tag: "Unknown" }
  | { readonly _tag: "Failed"; readonly reason: string }
  | { readonly _tag: "Acknowledge"; readonly endpoint: string; readonly pollIntervalSeconds: number }

/** How HMRC's data request is answered: as HMRC holds the messages, refused with HMRC's error, or not at all. */
export type DataRequestAnswer =
  { readonly _tag: "AsHeld" } | { readonly _tag: "Refused"; readonly reason: string } | { readonly _tag: "Unavailable" }

/**
 * Stands in for the tax authority: keeps the verifications asked for, and answers them as a test
 * says (matched, Net, by default); takes every return, rejecting one whose deductions total
 * £999.99 as the sandbox does. Each message is acknowledged with a correlation id at its response
 * endpoint, with no interval to wait unless a test sets one (`answerAfter`), and answered when
 * polled there until its answer is deleted (then, as HMRC, it knows the correlation id no more:
 * a poll answers 2000, and its data request records nothing of it). It keeps the Government
 * Gateway user id each message was sent with, and counts data requests. Credentials whose
 * password is `refused` fail HMRC's authentication (1046): at once, nothing sent; or, once a test
 * says so (`authenticateAtPoll`), as HMRC may, the message is acknowledged and its poll answers
 * 1046. A test scripts what HMRC may also do: answer polls otherwise (`nextPolls`), forget what
 * it holds (`forgetAll`), refuse or fail its data request (`dataRequests`), name another IRmark
 * in its receipt (`receiptNames`), take messages as tests (`gatewayTest`), refuse accounts not
 * enrolled for the employer reference a message names (`enrolledFor`).
 */
export class TaxAuthorityFake extends Effect.Service<TaxAuthorityFake>()("testkit/TaxAuthorityFake", {
  effect: Effect.gen(function* () {
    const asked = yield* Ref.make<ReadonlyArray<VerificationRequest>>([])
    // As the sandbox: a subcontractor named Error is refused; any other matched, Net.
    const answer = yield* Ref.make<Answer>((request) =>
      request.subcontractor.lastName === "Error" || request.subcontractor.tradingName === "Error"
        ? { _tag: "Refused", message: "The details given do not match HMRC's records for this subcontractor." }
        : matchedNet
    )
    /** Every endpoint a poll or delete was sent to. */
    const endpoints = yield* Ref.make<ReadonlyArray<string>>([])
    const interval = yield* Ref.make(0)
    const sentBy = yield* Ref.make<ReadonlyArray<string>>([])
    const atPoll = yield* Ref.make(false)
    const polls = yield* Ref.make<ReadonlyArray<PollStep>>([])
    const dataRequest = yield* Ref.make<DataRequestAnswer>({ _tag: "AsHeld" })
    const dataRequestsMade = yield* Ref.make(0)
    const receipt = yield* Ref.make<string | null>(null)
    const asTest = yield* Ref.make(false)
    const forgotten = yield* Ref.make(0)
    const enrolment = yield* Ref.make<ReadonlyArray<string> | null>(null)
    /**
     * Authenticates a message's sender (for the employer reference it names) and keeps its user
     * id: whether the message is taken refused (to answer 1046 when polled), or fails at once.
     */
    const recordSender = (
      credentials: SenderCredentials,
      employerReference: string | null
    ): Effect.Effect<boolean, CredentialsRefused> =>
      Effect.gen(function* () {
        const enrolled = yield* Ref.get(enrolment)
        const refused =
          refusedCredentials(credentials) ||
          (enrolled !== null && (employerReference === null || !enrolled.includes(employerReference)))
        if (refused && !(yield* Ref.get(atPoll))) return yield* Effect.fail(authenticationFailure())
        yield* Ref.update(sentBy, (all) => [...all, credentials.gatewayUserId])
        return refused
      })
    return {
      asked: Ref.get(asked),
      /** The Government Gateway user id of every message sent (verifications and returns), in order. */
      sentBy: Ref.get(sentBy),
      recordSender,
      /** From now on refused credentials are found out at the poll: the message is acknowledged, its poll answers 1046. */
      authenticateAtPoll: Ref.set(atPoll, true),
      answerWith: (f: Answer) => Ref.set(answer, f),
      unavailable: (message: string) => Ref.set(answer, () => new TaxAuthorityUnavailable({ message })),
      /** Asks the test's answer for a request, or fails as the test says the authority does. */
      answerFor: (request: VerificationRequest) =>
        Ref.update(asked, (all) => [...all, request]).pipe(
          Effect.zipRight(Ref.get(answer)),
          Effect.flatMap((f) => {
            const answered = f(request)
            return answered instanceof TaxAuthorityUnavailable ? Effect.fail(answered) : Effect.succeed(answered)
          })
        ),
      polledAt: Ref.get(endpoints),
      /** The PollInterval (seconds) the acknowledgements name from now on (none at first). */
      answerAfter: (seconds: number) => Ref.set(interval, seconds),
      pollInterval: Ref.get(interval),
      reachedAt: (endpoint: string) => Ref.update(endpoints, (all) => [...all, endpoint]),
      /** The next polls (of any message) are answered so, one step each, before the messages' own answers. */
      nextPolls: (...steps: ReadonlyArray<PollStep>) => Ref.update(polls, (all) => [...all, ...steps]),
      /** The step the next poll is answered with, if a test scripted one. */
      takePollStep: Ref.modify(polls, ([first, ...rest]) => [first, rest] as const),
      /** How HMRC's data request is answered from now on. */
      dataRequests: (answered: DataRequestAnswer) => Ref.set(dataRequest, answered),
      dataRequestAnswer: Ref.get(dataRequest),
      /** How many data requests were made. */
      dataRequestCount: Ref.get(dataRequestsMade),
      countDataRequest: Ref.update(dataRequestsMade, (n) => n + 1),
      /** From now on HMRC's receipts name this IRmark, whatever was sent (null: the one sent). */
      receiptNames: (irmark: string | null) => Ref.set(receipt, irmark),
      receiptIrmark: Ref.get(receipt),
      /** Messages are sent as tests from now on (GovTalk's GatewayTest), as GOVTALK_TEST=true sends them. */
      gatewayTest: (test: boolean) => Ref.set(asTest, test),
      sendsAsTest: Ref.get(asTest),
      /**
       * From now on the Government Gateway accounts are enrolled for these employer references
       * only: a message naming another fails authentication (1046), as HMRC refuses an account
       * not enrolled for the scheme (null: any).
       */
      enrolledFor: (employerReferences: ReadonlyArray<string> | null) => Ref.set(enrolment, employerReferences),
      /** HMRC forgets everything it holds: a poll of it answers 2000, its data request records nothing of it. */
      forgetAll: Ref.update(forgotten, (n) => n + 1),
      forgotten: Ref.get(forgotten)
    } as const
  })
}) {}

interface Held {
  readonly answer:
    | { readonly kind: "return"; readonly accepted: boolean; readonly text: string; readonly irmark: string }
    | { readonly kind: "verification"; readonly answer: VerificationAnswer }
  /** Sent with credentials HMRC refuses: its poll answers 1046. */
  readonly refused: boolean
  /** Where it is answered: the endpoint its last acknowledgement named. */
  readonly endpoint: string
}

export const TaxAuthorityMemory = Layer.effect(
  TaxAuthority,
  Effect.gen(function* () {
    const fake = yield* TaxAuthorityFake
    /** The answers held (sent and not yet deleted), by correlation id, as HMRC holds them. */
    const held = yield* Ref.make<ReadonlyMap<string, Held>>(new Map())
    const counter = yield* Ref.make(0)
    /** How many times the test had HMRC forget when `held` was last read. */
    const forgetfulness = yield* Ref.make(0)

    /** The messages HMRC holds: none of those taken before it last forgot. */
    const holding = Effect.gen(function* () {
      const forgotten = yield* fake.forgotten
      const seen = yield* Ref.get(forgetfulness)
      if (seen !== forgotten) {
        yield* Ref.set(held, new Map())
        yield* Ref.set(forgetfulness, forgotten)
      }
      return yield* Ref.get(held)
    })

    const take = (message: Omit<Held, "endpoint">) =>
      Effect.gen(function* () {
        yield* holding
        const n = yield* Ref.updateAndGet(counter, (i) => i + 1)
        const correlationId = `FAKE${String(n).padStart(8, "0")}`
        yield* Ref.update(held, (all) =>
          new Map(all).set(correlationId, { ...message, endpoint: FAKE_RESPONSE_ENDPOINT })
        )
        const pollIntervalSeconds = yield* fake.pollInterval
        return { correlationId, endpoint: FAKE_RESPONSE_ENDPOINT, pollIntervalSeconds } satisfies Acknowledgement
      })

    /**
     * A poll of a message: a step the test scripted, else what HMRC holds at that endpoint (its
     * answer; 1046 for refused credentials; 2000 when it holds nothing there).
     */
    const poll = (sent: SentMessage): Effect.Effect<Held | NoAnswerYet, CredentialsRefused> =>
      Effect.gen(function* () {
        yield* fake.reachedAt(sent.endpoint ?? "")
        const all = yield* holding
        const message = all.get(sent.correlationId)
        const here = message !== undefined && message.endpoint === sent.endpoint ? message : undefined
        const step = yield* fake.takePollStep
        if (step?._tag === "Unknown") return { _tag: "Unknown", reason: UNKNOWN_CORRELATION } as const
        if (step?._tag === "Failed") return { _tag: "Failed", reason: step.reason } as const
        if (step?._tag === "Acknowledge" && here !== undefined) {
          yield* Ref.update(held, (current) =>
            new Map(current).set(sent.correlationId, { ...here, endpoint: step.endpoint })
          )
          return {
            _tag: "Pending",
            acknowledgement: {
              correlationId: sent.correlationId,
              endpoint: step.endpoint,
              pollIntervalSeconds: step.pollIntervalSeconds
            }
          } as const
        }
        if (here === undefined) return { _tag: "Unknown", reason: UNKNOWN_CORRELATION } as const
        if (here.refused) return yield* Effect.fail(authenticationFailure())
        return here
      })

    /** A final answer deleted at its endpoint; unknown there, HMRC's 2000. */
    const deleteAnswer = (sent: SentMessage) =>
      Effect.gen(function* () {
        yield* fake.reachedAt(sent.endpoint ?? "")
        const message = (yield* holding).get(sent.correlationId)
        if (message === undefined || message.endpoint !== sent.endpoint)
          return yield* Effect.fail(new TaxAuthorityUnavailable({ message: UNKNOWN_CORRELATION }))
        yield* Ref.update(held, (all) => {
          const rest = new Map(all)
          rest.delete(sent.correlationId)
          return rest
        })
      })

    /** HMRC's data request, as the test says it answers: whether HMRC records the correlation id. */
    const lookUp = (
      sent: SentMessage,
      credentials: SenderCredentials
    ): Effect.Effect<Listed, TaxAuthorityUnavailable> =>
      Effect.gen(function* () {
        yield* fake.countDataRequest
        const answered = yield* fake.dataRequestAnswer
        if (answered._tag === "Unavailable")
          return yield* Effect.fail(new TaxAuthorityUnavailable({ message: "HMRC's data request went unanswered" }))
        if (answered._tag === "Refused") return { _tag: "Refused", reason: answered.reason } as const
        if (refusedCredentials(credentials)) return { _tag: "Refused", reason: AUTHENTICATION_FAILURE } as const
        const message = (yield* holding).get(sent.correlationId)
        return message === undefined
          ? ({ _tag: "NotRecorded" } as const)
          : ({ _tag: "Recorded", endpoint: message.endpoint } as const)
      })

    const irmarkOf = (submission: ReturnSubmission) => `FAKE-IRMARK-${submission.id}`

    const sendReturn = (submission: ReturnSubmission, credentials: SenderCredentials) => {
      const deducted = submission.lines.reduce((sum, line) => sum + line.deducted, 0)
      const accepted = deducted !== REJECTED_TOTAL_DEDUCTED_PENCE
      const irmark = irmarkOf(submission)
      return Effect.gen(function* () {
        const refused = yield* fake.recordSender(credentials, submission.contractor.scheme?.employerReference ?? null)
        const acknowledgement = yield* take({
          refused,
          answer: {
            kind: "return",
            accepted,
            irmark,
            text: accepted
              ? "HMRC has received the IR-CIS-CIS300MR document. We advise you to keep this receipt."
              : "The total deducted (£999.99) does not agree with the payments made. (3301)"
          }
        })
        return {
          _tag: "Acknowledged",
          acknowledgement,
          irmark,
          gatewayTest: yield* fake.sendsAsTest
        } satisfies SentReturn
      })
    }

    const sendVerification = (request: VerificationRequest, credentials: SenderCredentials) =>
      Effect.flatMap(fake.recordSender(credentials, request.contractor.scheme.employerReference), (refused) =>
        Effect.flatMap(fake.answerFor(request), (answer) => take({ answer: { kind: "verification", answer }, refused }))
      )

    return TaxAuthority.of({
      sendReturn,
      pollReturn: (sent) =>
        Effect.flatMap(poll(sent), (polled): Effect.Effect<ReturnPoll, TaxAuthorityFailure> => {
          if (!("answer" in polled)) return Effect.succeed(polled)
          const answered = polled.answer
          if (answered.kind !== "return") return Effect.succeed({ _tag: "Unknown", reason: UNKNOWN_CORRELATION })
          if (!answered.accepted) return Effect.succeed({ _tag: "Rejected", reason: answered.text })
          return Effect.map(fake.receiptIrmark, (named) => ({
            _tag: "Accepted" as const,
            receipt: { message: answered.text, irmark: named ?? answered.irmark }
          }))
        }),
      lookUpReturn: lookUp,
      deleteReturnAnswer: deleteAnswer,
      sendVerification: (_reference, request, credentials) =>
        Effect.map(sendVerification(request, credentials), (acknowledgement) => ({
          _tag: "Acknowledged" as const,
          acknowledgement
        })),
      pollVerification: (sent) =>
        Effect.map(poll(sent), (polled): VerificationPoll => {
          if (!("answer" in polled)) return polled
          return polled.answer.kind === "verification"
            ? polled.answer.answer
            : { _tag: "Unknown", reason: UNKNOWN_CORRELATION }
        }),
      lookUpVerification: lookUp,
      deleteVerificationAnswer: deleteAnswer
    })
  })
).pipe(Layer.provideMerge(TaxAuthorityFake.Default))
