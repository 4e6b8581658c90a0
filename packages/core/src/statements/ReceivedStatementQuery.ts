import { Effect, Schema } from "effect"
import { CalendarDate } from "../CalendarDate.js"
import { ValidationFailed } from "../Errors.js"
import { decodeInput } from "../Validation.js"

/** Which received statements a listing asks for: by periodEnd, each bound included when given. */
export interface ReceivedStatementQuery {
  readonly from?: string | null
  readonly to?: string | null
}

/** The bounds a listing reads, as YYYY-MM-DD (null: unbounded on that side). */
export interface PeriodBounds {
  readonly from: string | null
  readonly to: string | null
}

/** A bound of the listing as it comes in a query: a date. */
export const PeriodBound = CalendarDate.annotations({ examples: ["2026-06-05"] })

const checkBounds = decodeInput(
  Schema.Struct({ from: Schema.NullOr(PeriodBound), to: Schema.NullOr(PeriodBound) }).annotations({
    parseOptions: { errors: "all" }
  })
)

/** The query's bounds: each a date when given, `from` not after `to` (else invalid, naming the member). */
export const periodBounds = (query: ReceivedStatementQuery): Effect.Effect<PeriodBounds, ValidationFailed> =>
  Effect.flatMap(checkBounds({ from: query.from ?? null, to: query.to ?? null }), (bounds) =>
    bounds.from !== null && bounds.to !== null && bounds.from > bounds.to
      ? Effect.fail(ValidationFailed.one("from", "Must not be after to"))
      : Effect.succeed(bounds)
  )
