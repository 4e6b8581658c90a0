import { TaxAuthority, TaxAuthorityUnavailable } from "@cisbook/core/ports/TaxAuthority"
import type { VerificationAnswer, VerificationRequest } from "@cisbook/core/taxauthority/Verification"
import { Effect, Layer, Ref } from "effect"

type Answer = (request: VerificationRequest) => VerificationAnswer | TaxAuthorityUnavailable

export const matchedNet: VerificationAnswer = {
  _tag: "Matched",
  verificationNumber: "V1234567890",
  taxTreatment: "Net"
}

/**
 * Stands in for the tax authority: keeps the verifications asked for, and answers them as a test
 * says (matched, Net, by default); accepts every return.
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

export const TaxAuthorityMemory = Layer.effect(
  TaxAuthority,
  Effect.map(TaxAuthorityFake, (fake) =>
    TaxAuthority.of({ verify: fake.verify, submitReturn: () => Effect.succeed({ _tag: "Accepted" }) })
  )
).pipe(Layer.provideMerge(TaxAuthorityFake.Default))
