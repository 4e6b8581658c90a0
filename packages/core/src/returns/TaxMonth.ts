import { Schema } from "effect"
import { CalendarDate } from "../CalendarDate.js"

/**
 * CIS tax months run from the 6th of one month to the 5th of the next, and a return names its
 * month by that 5th (the CIS300 `PeriodEnd`). Dates here are UK calendar dates (see `ukCalendarDate`).
 */

const fifthOf = (year: number, month: number): string =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-05`

/** The end (the 5th) of the tax month that holds a calendar date. */
export const taxMonthEndOf = (date: string): string => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  if (day <= 5) return fifthOf(year, month)
  return month === 12 ? fifthOf(year + 1, 1) : fifthOf(year, month + 1)
}

/** The first day (the 6th) of the tax month that ends on a 5th. */
export const taxMonthStart = (periodEnd: string): string => {
  const [year, month] = periodEnd.split("-").map(Number) as [number, number]
  const previous = month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 }
  return `${String(previous.year).padStart(4, "0")}-${String(previous.month).padStart(2, "0")}-06`
}

/** A tax month as a return names it: a date on the 5th of a month. */
export const PeriodEnd = CalendarDate.pipe(
  Schema.filter(
    (date) => date.endsWith("-05") || "Must be the last day of a tax month: the 5th, for example 2026-06-05"
  ),
  Schema.annotations({ title: "PeriodEnd", examples: ["2026-06-05"] })
)

/** The end of the tax month `months` after the one ending `periodEnd` (before it when negative). */
export const taxMonthsAfter = (periodEnd: string, months: number): string => {
  const [year, month] = periodEnd.split("-").map(Number) as [number, number]
  const index = year * 12 + (month - 1) + months
  return fifthOf(Math.floor(index / 12), (index % 12) + 1)
}

/** The tax months from the one ending `from` to the one ending `to`, both included, oldest first. */
export const taxMonthsBetween = (from: string, to: string): ReadonlyArray<string> => {
  const months: Array<string> = []
  for (let end = from; end <= to; end = taxMonthsAfter(end, 1)) months.push(end)
  return months
}

/** When the return of the tax month ending `periodEnd` must reach HMRC: the 19th after it. */
export const returnDueDate = (periodEnd: string): string => `${periodEnd.slice(0, 8)}19`

/** The first day (6 April) of the tax year that holds the tax month ending `periodEnd`. */
export const taxYearStart = (periodEnd: string): string => {
  const [year, month] = periodEnd.split("-").map(Number) as [number, number]
  return `${String(month >= 5 ? year : year - 1).padStart(4, "0")}-04-06`
}

/**
 * The first day of the tax year two before the one that holds `periodEnd`: HMRC asks a contractor
 * to verify a subcontractor again when it was not on one of its returns since then (CISR51050).
 */
export const verifyAgainSince = (periodEnd: string): string => {
  const start = taxYearStart(periodEnd)
  return `${String(Number(start.slice(0, 4)) - 2).padStart(4, "0")}${start.slice(4)}`
}
