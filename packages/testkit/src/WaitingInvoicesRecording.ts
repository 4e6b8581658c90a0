import type { UserId } from "@cisbook/core/Ids"
import { WaitingInvoices } from "@cisbook/core/billing/WaitingInvoices"
import { Effect, Layer, Ref } from "effect"

/** Records every put-forward, so that a test can see a completed mandate set collection going. */
export class PutForwardLog extends Effect.Service<PutForwardLog>()("testkit/PutForwardLog", {
  effect: Effect.map(
    Ref.make<ReadonlyArray<{ readonly userId: UserId; readonly mandateReference: string }>>([]),
    (log) => ({ log }) as const
  )
}) {}

export const WaitingInvoicesRecording = Layer.effect(
  WaitingInvoices,
  Effect.map(PutForwardLog, ({ log }) =>
    WaitingInvoices.of({
      putForward: (userId, mandateReference) => Ref.update(log, (all) => [...all, { userId, mandateReference }])
    })
  )
).pipe(Layer.provideMerge(PutForwardLog.Default))
