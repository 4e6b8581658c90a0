import { Effect, Schema } from "effect"
import { ValidationFailed } from "../Errors.js"
import { decodeInput } from "../Validation.js"

const dateTime =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))?)?$/

const inRange = (value: number, low: number, high: number) => value >= low && value <= high

/**
 * The instant an RFC 3339 date-time stands for, in milliseconds since the epoch; a date alone is
 * its midnight UTC, and so is a date-time without an offset. Undefined when it is not one.
 */
export const parseInstant = (text: string): number | undefined => {
  const parts = dateTime.exec(text)
  if (!parts) return undefined
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map((p) => Number(p ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  const millis = Number((parts[7] ?? "").padEnd(3, "0").slice(0, 3))
  const offsetHours = Number(parts[10] ?? 0)
  const offsetMinutes = Number(parts[11] ?? 0)
  if (!inRange(month, 1, 12) || !inRange(hour, 0, 23) || !inRange(minute, 0, 59) || !inRange(second, 0, 59))
    return undefined
  if (!inRange(offsetHours, 0, 23) || !inRange(offsetMinutes, 0, 59)) return undefined
  const midnight = Date.UTC(year, month - 1, day)
  // Date.UTC rolls 2026-02-30 over into March: such a date does not exist.
  if (new Date(midnight).getUTCDate() !== day || year < 1) return undefined
  const offset = (parts[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes)
  return midnight + ((hour * 60 + minute - offset) * 60 + second) * 1000 + millis
}

/** The UTC calendar date (YYYY-MM-DD) of an instant. */
export const utcDate = (instant: number): string => new Date(instant).toISOString().slice(0, 10)

/** A bound of the payments report as it comes in a query: a date-time, or a date. */
export const ReportBound = Schema.String.pipe(
  Schema.filter(
    (text) =>
      parseInstant(text) !== undefined ||
      "Must be a date-time such as 2026-04-06T00:00:00Z (or a date such as 2026-04-06)"
  ),
  Schema.annotations({ format: "date-time", examples: ["2026-04-06T00:00:00Z"] })
)

/** The dates a payments report covers, both included. */
export interface ReportPeriod {
  readonly from: string
  readonly to: string
}

const checkBounds = decodeInput(
  Schema.Struct({ from: ReportBound, to: ReportBound }).annotations({ parseOptions: { errors: "all" } })
)

/** The UTC calendar dates of `from` and `to`; either one not a date-time, or `from` after `to`, is invalid. */
export const reportPeriod = (from: string, to: string): Effect.Effect<ReportPeriod, ValidationFailed> =>
  Effect.flatMap(checkBounds({ from, to }), (bounds) => {
    const start = parseInstant(bounds.from) ?? 0
    const end = parseInstant(bounds.to) ?? 0
    return start > end
      ? Effect.fail(ValidationFailed.one("from", "Must not be after to"))
      : Effect.succeed({ from: utcDate(start), to: utcDate(end) })
  })
