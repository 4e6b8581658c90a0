import { MonthlyReturns } from "@cisbook/core/returns/MonthlyReturns"
import { ReturnStatements } from "@cisbook/core/returns/ReturnStatements"
import { Obligations } from "@cisbook/core/returns/Obligations"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import { monthlyReturnDraftResponse, monthlyReturnDto } from "../dto/MonthlyReturnDto.js"
import { obligationDto } from "../dto/ObligationDto.js"
import { returnStatementDto, statementPdfResponse } from "../dto/ReturnStatementDto.js"

export const MonthlyReturnsHandlers = HttpApiBuilder.group(CisbookApi, "monthlyReturns", (handlers) =>
  Effect.gen(function* () {
    const returns = yield* MonthlyReturns
    const statements = yield* ReturnStatements
    const obligations = yield* Obligations
    return handlers
      .handle("createMonthlyReturn", ({ payload }) => returns.file(payload).pipe(Effect.map(monthlyReturnDto)))
      .handle("listMonthlyReturns", () => returns.list().pipe(Effect.map((all) => all.map(monthlyReturnDto))))
      .handle("getMonthlyReturnDraft", ({ urlParams }) =>
        returns.draft(urlParams.periodEnd).pipe(Effect.map(monthlyReturnDraftResponse))
      )
      .handle("listObligations", ({ urlParams }) =>
        obligations.list(urlParams).pipe(Effect.map((all) => all.map(obligationDto)))
      )
      .handle("getMonthlyReturn", ({ path }) => returns.get(path.id).pipe(Effect.map(monthlyReturnDto)))
      .handle("listReturnStatements", ({ path }) =>
        statements.list(path.id).pipe(Effect.map(Array.map(returnStatementDto)))
      )
      .handle("getReturnStatementPdf", ({ path }) =>
        statements.pdf(path.id, path.contact).pipe(Effect.map(statementPdfResponse))
      )
  })
)
