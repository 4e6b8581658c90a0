import { String } from "effect"
import { TypeOverrides } from "pg"

const INT8 = 20
const DATE = 1082

const safeInteger = (text: string): number => {
  const n = Number(text)
  if (!Number.isSafeInteger(n)) throw new RangeError(`The bigint ${text} is beyond JavaScript's safe integers`)
  return n
}

const types = new TypeOverrides()
// Pence and counts are bigint columns; they fit a number, and a value that does not is a defect.
types.setTypeParser(INT8, safeInteger)
// A calendar date has no time zone: keep "YYYY-MM-DD" rather than a Date at local midnight.
types.setTypeParser(DATE, (text: string) => text)

/** Names are mapped on every row of every result, and there are only so many columns: remember them. */
const memoised = (f: (name: string) => string) => {
  const seen = new Map<string, string>()
  return (name: string) => {
    let mapped = seen.get(name)
    if (mapped === undefined) {
      mapped = f(name)
      seen.set(name, mapped)
    }
    return mapped
  }
}

/** How every client of the service talks to PostgreSQL, whichever server it is. */
export const clientOptions = {
  transformQueryNames: memoised(String.camelToSnake),
  transformResultNames: memoised(String.snakeToCamel),
  // Column names are mapped; the keys inside json documents are stored and returned as given.
  transformJson: false,
  types
} as const
