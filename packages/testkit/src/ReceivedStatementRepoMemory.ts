import type { ReceivedStatement } from "@cisbook/core/statements/ReceivedStatement"
import { ReceivedStatementRepo } from "@cisbook/core/statements/ReceivedStatementRepo"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

interface Row {
  readonly statement: ReceivedStatement
  readonly pdf: Uint8Array
}

const latestFirst = (a: ReceivedStatement, b: ReceivedStatement) =>
  b.periodEnd.localeCompare(a.periodEnd) ||
  b.receivedAt.getTime() - a.receivedAt.getTime() ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The statements tenants received, in memory. */
export const ReceivedStatementRepoMemory = Layer.effect(
  ReceivedStatementRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const rows = yield* journal.ref<ReadonlyArray<Row>>([])
    const find = (tenantId: string, id: string) =>
      Effect.map(Ref.get(rows), (all) =>
        Option.fromNullable(all.find((row) => row.statement.tenantId === tenantId && row.statement.id === id))
      )
    return ReceivedStatementRepo.of({
      insert: (statement, pdf) =>
        Ref.modify(rows, (all) => {
          const { source } = statement
          const held = all.some(
            ({ statement: s }) =>
              s.tenantId === statement.tenantId &&
              s.source.tenantId === source.tenantId &&
              s.source.monthlyReturnId === source.monthlyReturnId &&
              s.source.contactId === source.contactId
          )
          return held ? ([false, all] as const) : ([true, [...all, { statement, pdf }]] as const)
        }),
      list: (tenantId, { from, to }) =>
        Effect.map(Ref.get(rows), (all) =>
          all
            .map((row) => row.statement)
            .filter(
              (s) =>
                s.tenantId === tenantId && (from === null || s.periodEnd >= from) && (to === null || s.periodEnd <= to)
            )
            .sort(latestFirst)
        ),
      find: (tenantId, id) =>
        Effect.map(
          find(tenantId, id),
          Option.map((row) => row.statement)
        ),
      pdf: (tenantId, id) =>
        Effect.map(
          find(tenantId, id),
          Option.map((row) => row.pdf)
        )
    })
  })
)
