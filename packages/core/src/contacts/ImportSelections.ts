import { Schema } from "effect"

const example = '[{"rowId":1},{"rowId":3}]'
const shape = `Must be a JSON array of the data rows to import, for example ${example}`

const rowIdMessage = () => "A rowId is a data row number: a whole number from 1"

const Selection = Schema.Struct({
  rowId: Schema.Number.annotations({ message: rowIdMessage }).pipe(
    Schema.int({ message: rowIdMessage }),
    Schema.positive({ message: rowIdMessage })
  )
}).annotations({ message: () => 'Each selection is an object such as {"rowId":3}' })

/** The import form's `selections` part: a JSON array of `{ rowId }`, at least one. */
export const ImportSelections = Schema.String.annotations({ message: () => shape })
  .pipe(
    Schema.compose(Schema.parseJson().annotations({ message: () => shape })),
    Schema.compose(
      Schema.Array(Selection)
        .annotations({ message: () => shape })
        .pipe(Schema.minItems(1, { message: () => "Select at least one row to import" }))
    )
  )
  .annotations({
    identifier: "ImportSelections",
    jsonSchema: {
      type: "string",
      contentMediaType: "application/json",
      contentSchema: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          required: ["rowId"],
          properties: { rowId: { type: "integer", minimum: 1, description: "A data row number" } }
        }
      },
      description: `A JSON array of the data rows to import, for example ${example}`,
      examples: [example]
    }
  })
