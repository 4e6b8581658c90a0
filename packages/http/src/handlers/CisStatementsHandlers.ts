import { ReceivedStatements } from "@cisbook/core/statements/ReceivedStatements"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import { receivedStatementDto, receivedStatementPdfResponse } from "../dto/ReceivedStatementDto.js"

export const CisStatementsHandlers = HttpApiBuilder.group(CisbookApi, "cisStatements", (handlers) =>
  Effect.gen(function* () {
    const statements = yield* ReceivedStatements
    return handlers
      .handle("listCisStatements", ({ urlParams }) =>
        statements.list(urlParams).pipe(Effect.map(Array.map(receivedStatementDto)))
      )
      .handle("getCisStatement", ({ path }) => statements.get(path.id).pipe(Effect.map(receivedStatementDto)))
      .handle("getCisStatementPdf", ({ path }) =>
        statements.pdf(path.id).pipe(Effect.map(receivedStatementPdfResponse))
      )
  })
)
