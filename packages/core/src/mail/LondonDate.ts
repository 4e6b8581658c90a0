const londonDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
  day: "2-digit"
})

/** The calendar date (YYYY-MM-DD) in the UK at an instant: what "today" is for a UK business. */
export const londonDate = (at: Date): string => londonDay.format(at)

/** Whole days from one YYYY-MM-DD date to a later one. */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
