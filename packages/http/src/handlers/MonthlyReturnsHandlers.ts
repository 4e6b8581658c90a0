import { MonthlyReturns } from "@cisbook/core/returns/MonthlyReturns"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { monthlyReturnDraftDto, monthlyReturnDto } from "../dto/MonthlyReturnDto.js"

export const MonthlyReturnsHandlers = HttpApiBuilder.group(CisbookApi, "monthlyReturns", (handlers) =>
  Effect.gen(function* () {
    const returns = yield* MonthlyReturns
    return handlers
      .handle("createMonthlyReturn", ({ payload }) => returns.file(payload).pipe(Effect.map(monthlyReturnDto)))
      .handle("listMonthlyReturns", () => returns.list().pipe(Effect.map((all) => all.map(monthlyReturnDto))))
      .handle("getMonthlyReturnDraft", ({ urlParams }) =>
        returns.draft(urlParams.periodEnd).pipe(Effect.map(monthlyReturnDraftDto))
      )
      .handle("getMonthlyReturn", ({ path }) => returns.get(path.id).pipe(Effect.map(monthlyReturnDto)))
  })
)
