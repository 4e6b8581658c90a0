import { TaxAuthority, TaxAuthorityUnavailable } from "@cisbook/core/taxauthority/TaxAuthority"
import type { VerificationAnswer, VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { Effect, Layer, Option, Ref } from "effect"

type Answer = (request: VerificationRequest) => VerificationAnswer | TaxAuthorityUnavailable

export const matchedNet: VerificationAnswer = {
  _tag: "Matched",
  verificationNumber: "V1234567890",
  taxTreatment: "Net"
}

/**
 * Stands in for the tax authority: keeps the verifications asked for, and answers them as a test
 * says (matched, Net, by default); takes every return under its id and accepts it when polled,
 * until its answer is deleted (then, as HMRC, it knows the correlation id no more).
 */
export class TaxAuthorityFake extends Effect.Service<TaxAuthorityFake>()("testkit/TaxAuthorityFake", {
  effect: Effect.gen(function* () {
    const asked = yield* Ref.make<ReadonlyArray<VerificationRequest>>([])
    const answer = yield* Ref.make<Answer>(() => matchedNet)
    return {
      asked: Ref.get(asked),
      answerWith: (f: Answer) => Ref.set(answer, f),
      unavailable: (message: string) => Ref.set(answer, () => new TaxAuthorityUnavailable({ message })),
      verify: (request: VerificationRequest) =>
        Ref.update(asked, (all) => [...all, request]).pipe(
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
      sendReturn: (submission) =>
        Ref.update(held, (ids) => new Set([...ids, correlationOf(submission.id)])).pipe(
          Effect.as({ _tag: "Acknowledged", correlationId: correlationOf(submission.id) } as const)
        ),
      findSentReturn: (id) =>
        Effect.map(Ref.get(held), (ids) =>
          ids.has(correlationOf(id)) ? Option.some(correlationOf(id)) : Option.none()
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
