import { Schema } from "effect"

const isCalendarDate = (s: string) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!match) return false
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return date.toISOString().startsWith(s)
}

/** A calendar date as YYYY-MM-DD, with no time zone. */
export const CalendarDate = Schema.String.pipe(
  Schema.filter((s) => isCalendarDate(s) || "Must be a date as YYYY-MM-DD, for example 2026-04-05"),
  Schema.annotations({ title: "CalendarDate", format: "date", examples: ["2026-04-05"] })
)

const ukDate = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
  day: "2-digit"
})

/** The calendar date in the UK at an instant, as YYYY-MM-DD. */
export const ukCalendarDate = (instant: Date): string => ukDate.format(instant)

/** The calendar date `days` after `date` (before it when negative), both YYYY-MM-DD. */
export const addDays = (date: string, days: number): string => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10)
}

/** The same day `months` calendar months after `date` (the month's last day when it has no such day). */
export const addMonths = (date: string, months: number): string => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  const lastDay = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate()
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, lastDay))).toISOString().slice(0, 10)
}
