import { Context, type Effect } from "effect"
import type { CisStatement } from "./CisStatement.js"

/** Renders a payment and deduction statement as a PDF file a subcontractor can read and print. */
export class StatementRenderer extends Context.Tag("core/StatementRenderer")<
  StatementRenderer,
  { readonly cisStatement: (statement: CisStatement) => Effect.Effect<Uint8Array> }
>() {}
