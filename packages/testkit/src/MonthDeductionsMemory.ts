import type { TenantId } from "@cisbook/core/Ids"
import { MonthDeductions } from "@cisbook/core/returns/MonthDeductions"
import { Effect, Layer, Ref } from "effect"

/** What a test says each tenant's drafted return of a month deducts (pence); a month not set deducts nothing. */
export class DraftedDeductions extends Effect.Service<DraftedDeductions>()("testkit/DraftedDeductions", {
  effect: Effect.gen(function* () {
    const drafted = yield* Ref.make<ReadonlyMap<string, number>>(new Map())
    const key = (tenantId: TenantId, periodEnd: string) => `${tenantId}/${periodEnd}`
    return {
      set: (tenantId: TenantId, periodEnd: string, deducted: number) =>
        Ref.update(drafted, (all) => new Map(all).set(key(tenantId, periodEnd), deducted)),
      of: (tenantId: TenantId, periodEnd: string) =>
        Effect.map(Ref.get(drafted), (all) => all.get(key(tenantId, periodEnd)) ?? 0)
    } as const
  })
}) {}

/** MonthDeductions over what the test set in DraftedDeductions. */
export const MonthDeductionsMemory = Layer.effect(
  MonthDeductions,
  Effect.map(DraftedDeductions, (drafted) =>
    MonthDeductions.of({
      drafted: (tenantId, periodEnds) =>
        Effect.forEach(periodEnds, (periodEnd) =>
          Effect.map(drafted.of(tenantId, periodEnd), (deducted) => [periodEnd, deducted] as const)
        ).pipe(Effect.map((entries) => new Map(entries)))
    })
  )
).pipe(Layer.provideMerge(DraftedDeductions.Default))
