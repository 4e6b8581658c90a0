import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { MonthlyReturns } from "@cisbook/core/returns/MonthlyReturns"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { monthlyReturnDto } from "@cisbook/core/returns/MonthlyReturnView"

export const MonthlyReturnsHandlers = HttpApiBuilder.group(CisbookApi, "monthlyReturns", (handlers) =>
  Effect.gen(function* () {
    const returns = yield* MonthlyReturns
    return handlers
      .handle("createMonthlyReturn", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => returns.file(user, path.tenant, payload)),
          Effect.map(monthlyReturnDto)
        )
      )
      .handle("listMonthlyReturns", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => returns.list(user, path.tenant)),
          Effect.map((all) => all.map(monthlyReturnDto))
        )
      )
      .handle("getMonthlyReturn", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => returns.get(user, path.tenant, path.id)),
          Effect.map(monthlyReturnDto)
        )
      )
  })
)
