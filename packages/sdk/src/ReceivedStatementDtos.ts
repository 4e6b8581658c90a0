import { Schema } from "effect"

// Checked by the use case, which names each bad bound; here only documented.
const bound = (description: string) =>
  Schema.optionalWith(
    Schema.String.annotations({
      description: `${description} (YYYY-MM-DD); any date, though periodEnds are the 5th`,
      format: "date",
      examples: ["2026-06-05"]
    }),
    { exact: true }
  )

export const ReceivedStatementListParams = Schema.Struct({
  from: bound("Only statements whose periodEnd is on or after this day"),
  to: bound("Only statements whose periodEnd is on or before this day")
})

// A received statement as the API shows it is the `data` of cis-statement.received, which core writes with the delivery.
export {
  ReceivedStatementEventData as ReceivedStatementDto,
  ReconciliationEventData as StatementReconciliationDto
} from "@cisbook/core/statements/ReceivedStatementEventData"
