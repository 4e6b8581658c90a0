import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import type { Acknowledgement, SentMessage } from "@cisbook/core/taxauthority/Acknowledgement"
import {
  CredentialsRefused,
  TaxAuthority,
  type TaxAuthorityFailure,
  TaxAuthorityUnavailable
} from "@cisbook/core/taxauthority/TaxAuthority"
import type { ReturnPoll, ReturnSubmission, SentReturn } from "@cisbook/core/taxauthority/ReturnSubmission"
import type { VerificationAnswer, VerificationPoll, VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { Effect, Layer, Option, Redacted, Ref } from "effect"

type Answer = (request: VerificationRequest) => VerificationAnswer | TaxAuthorityUnavailable

export const matchedNet: VerificationAnswer = {
  _tag: "Matched",
  verificationNumber: "V1234567890",
  taxTreatment: "Net"
}

/** The password the fake (as the sandbox's Transaction Engine) refuses: HMRC's authentication failure. */
export const REFUSED_PASSWORD = "refused"

const authenticationFailure = () =>
  new CredentialsRefused({
    message: "Authentication Failure. The supplied user credentials failed validation for the requested service. (1046)"
  })

const refusedCredentials = (credentials: SenderCredentials) => Redacted.value(credentials.password) === REFUSED_PASSWORD

/** HMRC's authentication failure, for credentials whose password is `refused`. */
const authenticate = (credentials: SenderCredentials) =>
  refusedCredentials(credentials) ? Effect.fail(authenticationFailure()) : Effect.void

/** Where the fake answers what it took: not where it takes them. */
export const FAKE_RESPONSE_ENDPOINT = "memory://tax-authority/response"

/** The total deducted the fake (as the sandbox) rejects: £999.99. */
const REJECTED_TOTAL_DEDUCTED_PENCE = 99_999

/**
 * Stands in for the tax authority: keeps the verifications asked for, and answers them as a test
 * says (matched, Net, by default); takes every return, rejecting one whose deductions total
 * £999.99 as the sandbox does. Each message is acknowledged with a correlation id at its response
 * endpoint, with no interval to wait unless a test sets one (`answerAfter`), and answered when
 * polled there until its answer is deleted (then, as HMRC, it knows the correlation id no more).
 * It keeps the Government Gateway user id each message was sent with. Credentials whose password
 * is `refused` fail HMRC's authentication (1046): at once, nothing sent; or, once a test says so
 * (`authenticateAtPoll`), as HMRC may, the message is acknowledged and its poll answers 1046.
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
    /**
     * Authenticates a message's sender and keeps its user id: whether the message is taken
     * refused (to answer 1046 when polled), or fails at once.
     */
    const recordSender = (credentials: SenderCredentials): Effect.Effect<boolean, CredentialsRefused> =>
      Effect.gen(function* () {
        const refused = refusedCredentials(credentials)
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
      /** A data request's authentication: at once, unless refused credentials are found out at polls only. */
      authenticateDataRequest: (credentials: SenderCredentials) =>
        Effect.flatMap(Ref.get(atPoll), (later) => (later ? Effect.void : authenticate(credentials))),
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
      reachedAt: (endpoint: string) => Ref.update(endpoints, (all) => [...all, endpoint])
    } as const
  })
}) {}

type Held = (
  | { readonly kind: "return"; readonly transaction: string; readonly answer: { accepted: boolean; text: string } }
  | { readonly kind: "verification"; readonly transaction: string; readonly answer: VerificationAnswer }
) & {
  /** Sent with credentials HMRC refuses: its poll answers 1046, and HMRC's data request does not find it taken. */
  readonly refused?: boolean
}

export const TaxAuthorityMemory = Layer.effect(
  TaxAuthority,
  Effect.gen(function* () {
    const fake = yield* TaxAuthorityFake
    /** The answers held (sent and not yet deleted), by correlation id, as HMRC holds them. */
    const held = yield* Ref.make<ReadonlyMap<string, Held>>(new Map())
    const counter = yield* Ref.make(0)

    const take = (message: Held) =>
      Effect.gen(function* () {
        const n = yield* Ref.updateAndGet(counter, (i) => i + 1)
        const correlationId = `FAKE${String(n).padStart(8, "0")}`
        yield* Ref.update(held, (all) => new Map(all).set(correlationId, message))
        const pollIntervalSeconds = yield* fake.pollInterval
        return { correlationId, endpoint: FAKE_RESPONSE_ENDPOINT, pollIntervalSeconds } satisfies Acknowledgement
      })

    const find = (sent: SentMessage): Effect.Effect<Held | undefined, CredentialsRefused> =>
      Effect.zipRight(
        fake.reachedAt(sent.endpoint ?? ""),
        Effect.flatMap(Ref.get(held), (all) => {
          const message = sent.endpoint === FAKE_RESPONSE_ENDPOINT ? all.get(sent.correlationId) : undefined
          return message?.refused === true ? Effect.fail(authenticationFailure()) : Effect.succeed(message)
        })
      )

    /** The message as a delete finds it: one refused is deleted like any. */
    const findToDelete = (sent: SentMessage) =>
      Effect.zipRight(
        fake.reachedAt(sent.endpoint ?? ""),
        Effect.map(Ref.get(held), (all) =>
          sent.endpoint === FAKE_RESPONSE_ENDPOINT ? all.get(sent.correlationId) : undefined
        )
      )

    /** A final answer deleted at its endpoint; unknown there, HMRC's 2000. */
    const deleteAnswer = (sent: SentMessage) =>
      Effect.flatMap(findToDelete(sent), (message) =>
        message === undefined
          ? Effect.fail(new TaxAuthorityUnavailable({ message: `Unknown CorrelationID ${sent.correlationId} (2000)` }))
          : Ref.update(held, (all) => {
              const rest = new Map(all)
              rest.delete(sent.correlationId)
              return rest
            })
      )

    const findHeld = (kind: Held["kind"], transaction: string) =>
      Effect.map(Ref.get(held), (all) => {
        const found = [...all].find(([, h]) => h.kind === kind && h.transaction === transaction && h.refused !== true)
        return found === undefined
          ? Option.none()
          : Option.some<Acknowledgement>({
              correlationId: found[0],
              endpoint: FAKE_RESPONSE_ENDPOINT,
              pollIntervalSeconds: 0
            })
      })

    const irmarkOf = (submission: ReturnSubmission) => `FAKE-IRMARK-${submission.id}`

    const sendReturn = (submission: ReturnSubmission, credentials: SenderCredentials) => {
      const deducted = submission.lines.reduce((sum, line) => sum + line.deducted, 0)
      const accepted = deducted !== REJECTED_TOTAL_DEDUCTED_PENCE
      return Effect.flatMap(fake.recordSender(credentials), (refused) =>
        take({
          kind: "return",
          transaction: submission.id,
          refused,
          answer: accepted
            ? {
                accepted,
                text: `HMRC has received the IR-CIS-CIS300MR document. The associated IRmark was: ${irmarkOf(submission)}.`
              }
            : { accepted, text: "The total deducted (£999.99) does not agree with the payments made. (3301)" }
        }).pipe(
          Effect.map((acknowledgement): SentReturn => ({
            _tag: "Acknowledged",
            acknowledgement,
            irmark: irmarkOf(submission)
          }))
        )
      )
    }

    const sendVerification = (reference: string, request: VerificationRequest, credentials: SenderCredentials) =>
      Effect.flatMap(fake.recordSender(credentials), (refused) =>
        Effect.flatMap(fake.answerFor(request), (answer) =>
          take({ kind: "verification", transaction: reference, answer, refused })
        )
      )

    return TaxAuthority.of({
      sendReturn,
      findSentReturn: (submission, credentials) =>
        Effect.map(
          Effect.zipRight(fake.authenticateDataRequest(credentials), findHeld("return", submission.id)),
          Option.map((acknowledgement): SentReturn => ({
            _tag: "Acknowledged",
            acknowledgement,
            irmark: irmarkOf(submission)
          }))
        ),
      pollReturn: (sent, submission, credentials) =>
        Effect.flatMap(find(sent), (message): Effect.Effect<ReturnPoll, TaxAuthorityFailure> => {
          if (message?.kind === "return")
            return Effect.succeed(
              message.answer.accepted
                ? ({ _tag: "Accepted", message: message.answer.text } as const)
                : ({ _tag: "Rejected", reason: message.answer.text } as const)
            )
          // Unknown at its endpoint: never a rejection; HMRC holds nothing of it, so it is sent again.
          return Effect.map(
            sendReturn(submission, credentials),
            (again) => ({ _tag: "Resent", sent: again, retryAfterMs: 0 }) as const
          )
        }),
      deleteReturnAnswer: deleteAnswer,
      sendVerification: (reference, request, credentials) =>
        Effect.map(sendVerification(reference, request, credentials), (acknowledgement) => ({
          _tag: "Acknowledged" as const,
          acknowledgement
        })),
      findSentVerification: (reference, credentials) =>
        Effect.zipRight(fake.authenticateDataRequest(credentials), findHeld("verification", reference)),
      pollVerification: (sent, reference, request, credentials) =>
        Effect.flatMap(find(sent), (message): Effect.Effect<VerificationPoll, TaxAuthorityFailure> =>
          message?.kind === "verification"
            ? Effect.succeed(message.answer)
            : Effect.map(sendVerification(reference, request, credentials), (acknowledgement) => ({
                _tag: "Resent" as const,
                acknowledgement,
                retryAfterMs: 0
              }))
        ),
      deleteVerificationAnswer: deleteAnswer
    })
  })
).pipe(Layer.provideMerge(TaxAuthorityFake.Default))
