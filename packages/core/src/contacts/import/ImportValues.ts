import { Either } from "effect"
import type { CisType } from "../../cis/CisDetails.js"
import type { TaxTreatment, VatRate } from "../Contact.js"
import { looseKey } from "../ImportColumns.js"

/** A cell as read: its value (null when blank), or a phrase saying what is wrong with it. */
export type CellValue<A> = Either.Either<A | null, string>

const blank = Either.right(null)

/** A reader of cells whose values are matched loosely against a table of accepted spellings. */
const spellings =
  <A>(column: string, accepted: ReadonlyArray<readonly [A, ReadonlyArray<string>]>, expected: string) =>
  (cell: string): CellValue<A> => {
    if (cell === "") return blank
    const key = looseKey(cell)
    const found = accepted.find(([, names]) => names.includes(key))
    return found ? Either.right(found[0]) : Either.left(`${column} "${cell}" is not ${expected}`)
  }

export const readFlag = (column: string) =>
  spellings(
    column,
    [
      [true, ["true", "yes", "y", "1"]],
      [false, ["false", "no", "n", "0"]]
    ],
    "yes or no (true/false, yes/no, y/n or 1/0)"
  )

export const readCisType = spellings<CisType>(
  "Type",
  [
    ["SoleTrader", ["soletrader", "individual"]],
    ["Partnership", ["partnership"]],
    ["Company", ["company", "limitedcompany", "ltd"]],
    ["Trust", ["trust"]]
  ],
  "SoleTrader, Partnership, Company or Trust"
)

export const readVatRate = spellings<VatRate>(
  "VATRate",
  [
    ["Standard", ["standard", "standardrate", "20"]],
    ["Reduced", ["reduced", "reducedrate", "5"]],
    ["Zero", ["zero", "zerorated", "0"]],
    ["Exempt", ["exempt"]],
    ["NoVat", ["novat", "none"]],
    ["ReverseCharge", ["reversecharge", "domesticreversecharge"]]
  ],
  "a VAT rate: Standard, Reduced, Zero, Exempt, NoVat or ReverseCharge"
)

export const readTaxStatus = spellings<TaxTreatment>(
  "TaxStatus",
  [
    ["Gross", ["gross", "0"]],
    ["Net", ["net", "20"]],
    ["Unmatched", ["unmatched", "higher", "30"]]
  ],
  "a tax status: Gross, Net or Unmatched (or gross, net, higher, 0, 20, 30)"
)

// V and 10 digits; an unmatched subcontractor's number adds a suffix of 1 or 2 letters (no I or
// O), written with or without a slash, e.g. V1234567890/A.
const verificationNumberShape = /^V\d{10}(\/?[A-HJ-NP-Z]{1,2})?$/

/** A verification reference, upper case without spaces. */
export const readVerificationNumber = (cell: string): CellValue<string> => {
  if (cell === "") return blank
  const number = cell.replace(/\s+/g, "").toUpperCase()
  return verificationNumberShape.test(number)
    ? Either.right(number)
    : Either.left(
        `VerificationNumber "${cell}" is not a verification number: V and 10 digits, with a letter suffix for an unmatched subcontractor (V1234567890 or V1234567890/A)`
      )
}

const isoDate = /^(\d{4})-(\d{1,2})-(\d{1,2})$/
// Day first, as UK spreadsheets write dates.
const ukDate = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/

const calendarDate = (year: number, month: number, day: number): string | null => {
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date.toISOString().slice(0, 10)
    : null
}

/** A verification date as YYYY-MM-DD, from YYYY-MM-DD or DD/MM/YYYY; never after `latest` (YYYY-MM-DD). */
export const readVerificationDate =
  (latest: string) =>
  (cell: string): CellValue<string> => {
    if (cell === "") return blank
    const iso = isoDate.exec(cell)
    const uk = ukDate.exec(cell)
    const date = iso
      ? calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))
      : uk
        ? calendarDate(Number(uk[3]), Number(uk[2]), Number(uk[1]))
        : null
    if (date === null) {
      return Either.left(`VerificationDate "${cell}" is not a date: write it as YYYY-MM-DD or DD/MM/YYYY`)
    }
    return date > latest ? Either.left(`VerificationDate ${date} is in the future`) : Either.right(date)
  }
