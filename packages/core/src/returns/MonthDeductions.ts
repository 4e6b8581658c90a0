import { Context, type Effect } from "effect"
import type { TenantId } from "../Ids.js"

/**
 * What the contractor deducted in tax months it has not filed a return for, as its return drafted
 * from its recorded payments says (pence): what a month's late-filing penalty is worked on while
 * no return says otherwise.
 */
export class MonthDeductions extends Context.Tag("core/MonthDeductions")<
  MonthDeductions,
  {
    /** The deductions of each tax month named (by its periodEnd); every one of them is in the answer. */
    readonly drafted: (
      tenantId: TenantId,
      periodEnds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, number>>
  }
>() {}
