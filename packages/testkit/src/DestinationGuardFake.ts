import { DestinationGuard, DestinationRefused } from "@cisbook/core/webhooks/DestinationGuard"
import { Effect, Layer, Ref } from "effect"

/** Stands in for the real guard: a test says which hosts are refused, and why. */
export class DestinationGuardFake extends Effect.Service<DestinationGuardFake>()("testkit/DestinationGuardFake", {
  effect: Effect.map(Ref.make(new Map<string, string>()), (refused) => ({
    refused,
    refuse: (host: string, reason: string) => Ref.update(refused, (all) => new Map(all).set(host, reason))
  }))
}) {}

export const DestinationGuardMemory = Layer.effect(
  DestinationGuard,
  Effect.map(DestinationGuardFake, ({ refused }) =>
    DestinationGuard.of({
      check: (url) =>
        Effect.flatMap(Ref.get(refused), (all) => {
          const reason = all.get(new URL(url).hostname)
          return reason === undefined ? Effect.void : Effect.fail(new DestinationRefused({ reason }))
        })
    })
  )
).pipe(Layer.provideMerge(DestinationGuardFake.Default))
