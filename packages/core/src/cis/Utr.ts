import { Option, Schema } from "effect"

const weights = [6, 7, 8, 9, 10, 5, 4, 3, 2] as const
const checkDigitByRemainder = [2, 1, 9, 8, 7, 6, 5, 4, 3, 2, 1] as const

/** HMRC's modulus-11 check digit for the 9 digits that follow it. */
export const utrCheckDigit = (nineDigits: string): number => {
  let sum = 0
  for (let i = 0; i < weights.length; i++) sum += Number(nineDigits[i]) * weights[i]!
  return checkDigitByRemainder[sum % 11]!
}

/**
 * The 10 digits a UTR as typed denotes: spaces removed, a leading or trailing K (Self
 * Assessment) dropped, and for the 13-digit form on some HMRC letters its last 10 digits (as
 * GOV.UK tells users to enter). Does not check the check digit.
 */
export const normaliseUtr = (input: string): Option.Option<string> => {
  const compact = input.replace(/\s+/g, "").toUpperCase().replace(/^K|K$/, "")
  return /^(\d{10}|\d{13})$/.test(compact) ? Option.some(compact.slice(-10)) : Option.none()
}

/** The 10 digits a UTR as typed denotes, or the input as it is when it denotes none. */
export const normalisedUtr = (input: string): string => Option.getOrElse(normaliseUtr(input), () => input)

/** True for 10 digits whose first is the check digit of the other nine. */
export const hasValidCheckDigit = (digits: string): boolean =>
  /^\d{10}$/.test(digits) && Number(digits[0]) === utrCheckDigit(digits.slice(1))

export const isValidUtr = (input: string): boolean => Option.exists(normaliseUtr(input), hasValidCheckDigit)

/** A Unique Taxpayer Reference: decodes any accepted input form to its 10 digits. */
export const Utr = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter(
      (s) => hasValidCheckDigit(s) || "Must be a 10-digit UTR with a valid check digit, for example 2234567890"
    ),
    Schema.brand("Utr")
  ),
  { strict: true, decode: normalisedUtr, encode: (utr) => utr }
).annotations({ title: "Utr", examples: ["2234567890" as never] })
export type Utr = typeof Utr.Type
