import type { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { CredentialsRefused, TaxAuthority, TaxAuthorityUnavailable } from "@cisbook/core/taxauthority/TaxAuthority"
import type { VerificationAnswer, VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { Effect, Layer, Option, Redacted, Ref } from "effect"

type Answer = (request: VerificationRequest) => VerificationAnswer | TaxAuthorityUnavailable

export const matchedNet: VerificationAnswer = {
  _tag: "Matched",
  verificationNumber: "V1234567890",
  taxTreatment: "Net"
}

/** The password the fake (as the sandbox's Transaction Engine) refuses: HMRC's authentication failure. */
export const REFUSED_PASSWORD = "refused"

/** HMRC's authentication failure, for credentials whose password is `refused`. */
const authenticate = (credentials: SenderCredentials) =>
  Redacted.value(credentials.password) === REFUSED_PASSWORD
    ? Effect.fail(
        new CredentialsRefused({
          message:
            "Authentication Failure. The supplied user credentials failed validation for the requested service. (1046)"
        })
      )
    : Effect.void

/**
 * Stands in for the tax authority: keeps the verifications asked for (and the Government Gateway
 * user id each was sent with), and answers them as a test says (matched, Net, by default); takes
 * every return under its id and accepts it when polled, until its answer is deleted (then, as
 * HMRC, it knows the correlation id no more). Credentials whose password is `refused` fail HMRC's
 * authentication, and nothing is sent with them.
 */
export class TaxAuthorityFake extends Effect.Service<TaxAuthorityFake>()("testkit/TaxAuthorityFake", {
  effect: Effect.gen(function* () {
    const asked = yield* Ref.make<ReadonlyArray<VerificationRequest>>([])
    const sentBy = yield* Ref.make<ReadonlyArray<string>>([])
    const answer = yield* Ref.make<Answer>(() => matchedNet)
    const recordSender = (credentials: SenderCredentials) =>
      Effect.zipRight(
        authenticate(credentials),
        Ref.update(sentBy, (all) => [...all, credentials.gatewayUserId])
      )
    return {
      asked: Ref.get(asked),
      /** The Government Gateway user id of every message sent (verifications and returns), in order. */
      sentBy: Ref.get(sentBy),
      recordSender,
      answerWith: (f: Answer) => Ref.set(answer, f),
      unavailable: (message: string) => Ref.set(answer, () => new TaxAuthorityUnavailable({ message })),
      verify: (request: VerificationRequest, credentials: SenderCredentials) =>
        recordSender(credentials).pipe(
          Effect.zipRight(Ref.update(asked, (all) => [...all, request])),
          Effect.zipRight(Ref.get(answer)),
          Effect.flatMap((f) => {
            const answered = f(request)
            return answered instanceof TaxAuthorityUnavailable ? Effect.fail(answered) : Effect.succeed(answered)
          })
        )
    } as const
  })
}) {}

const correlationOf = (returnId: string) => `FAKE-${returnId}`

export const TaxAuthorityMemory = Layer.effect(
  TaxAuthority,
  Effect.gen(function* () {
    const fake = yield* TaxAuthorityFake
    /** The correlation ids whose answer is held (sent and not yet deleted), as HMRC holds them. */
    const held = yield* Ref.make<ReadonlySet<string>>(new Set())
    return TaxAuthority.of({
      verify: fake.verify,
      sendReturn: (submission, credentials) =>
        fake
          .recordSender(credentials)
          .pipe(
            Effect.zipRight(Ref.update(held, (ids) => new Set([...ids, correlationOf(submission.id)]))),
            Effect.as({ _tag: "Acknowledged", correlationId: correlationOf(submission.id) } as const)
          ),
      findSentReturn: (id, credentials) =>
        Effect.zipRight(
          authenticate(credentials),
          Effect.map(Ref.get(held), (ids) =>
            ids.has(correlationOf(id)) ? Option.some(correlationOf(id)) : Option.none()
          )
        ),
      pollReturn: (correlationId) =>
        Effect.map(Ref.get(held), (ids) =>
          ids.has(correlationId)
            ? ({ _tag: "Accepted" } as const)
            : ({ _tag: "Rejected", reason: "Unknown CorrelationID (2000)" } as const)
        ),
      deleteReturnAnswer: (correlationId) =>
        Ref.update(held, (ids) => new Set([...ids].filter((id) => id !== correlationId)))
    })
  })
).pipe(Layer.provideMerge(TaxAuthorityFake.Default))
