import { MAX_IMPORT_ROWS } from "@cisbook/core/contacts/ImportLimits"
import { Either } from "effect"

/** Data row numbers as a person types them: `1,3-5` is rows 1, 3, 4 and 5. */
export const parseRowSelection = (text: string): Either.Either<ReadonlySet<number>, string> => {
  const rows = new Set<number>()
  for (const part of text.split(",").map((p) => p.trim())) {
    const range = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part)
    const from = Number(range?.[1])
    const to = range?.[2] === undefined ? from : Number(range[2])
    if (!range || from < 1 || to < from) {
      return Either.left(`--rows "${text}" is not a list of row numbers and ranges such as 1,3-5`)
    }
    if (to > MAX_IMPORT_ROWS) {
      return Either.left(`--rows goes up to ${to}, but an import file has at most ${MAX_IMPORT_ROWS} data rows`)
    }
    for (let row = from; row <= to; row++) rows.add(row)
  }
  return Either.right(rows)
}
