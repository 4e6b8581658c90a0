import { Schema } from "effect"

/** Trimmed, spaces removed, upper case: the stored form of both references. */
const compact = (input: string): string => input.replace(/\s+/g, "").toUpperCase()

const employerReferenceShape = /^(\d{3})\/([A-Z0-9]{1,10})$/

/** True for an employer PAYE reference in its stored form: `123/AB45678`. */
export const isNormalisedEmployerReference = (reference: string): boolean => employerReferenceShape.test(reference)

/**
 * The employer PAYE reference a contractor files under: the 3-digit tax office number, `/`, and
 * the tax office's reference of 1–10 letters and digits (`123/AB45678`), as on HMRC's letters.
 */
export const EmployerReference = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter(
      (s) =>
        isNormalisedEmployerReference(s) ||
        "Must be an employer PAYE reference: a 3-digit tax office number, a slash and up to 10 letters and digits, for example 123/AB45678"
    ),
    Schema.brand("EmployerReference")
  ),
  { strict: true, decode: compact, encode: (reference) => reference }
).annotations({ title: "EmployerReference", examples: ["123/AB45678" as never] })
export type EmployerReference = typeof EmployerReference.Type

/** GovTalk's `TaxOfficeNumber` key: the 3 digits before the slash. */
export const taxOfficeNumber = (reference: EmployerReference): string => reference.slice(0, reference.indexOf("/"))

/** GovTalk's `TaxOfficeReference` key: what follows the slash. */
export const taxOfficeReference = (reference: EmployerReference): string => reference.slice(reference.indexOf("/") + 1)

/*
 * HMRC's check of an Accounts Office reference (hmrc/reference-checker, EpayeReferenceChecker):
 * three digits, `P`, a check letter, six digits and two more letters or digits; the check letter
 * is the modulus-23 remainder of the weighted characters (the check letter itself weighted 0),
 * looked up in HMRC's table. The 961 office's references follow a shape of their own.
 */
const accountsOfficeShape = /^\d{3}P[A-Z]\d{6}[A-Z_0-9]{2}$/
const weights = [9, 10, 11, 12, 0, 8, 7, 6, 5, 4, 3, 2, 1] as const
const checkLetters = "ABCDEFGHXJKLMNYPQRSTZVW"
/** HMRC's own values for letters (I and O, absent from its table, never pass the check). */
// prettier-ignore
const letterValues: Record<string, number> = {
  A: 33, B: 34, C: 35, D: 36, E: 37, F: 38, G: 39, H: 40, J: 42, K: 43, L: 44, M: 45,
  N: 46, P: 48, Q: 49, R: 50, S: 51, T: 52, U: 56, V: 54, W: 55, X: 41, Y: 47, Z: 53
}

// Digits count as themselves and `_` as -1, as in HMRC's checker.
const valueOf = (char: string): number =>
  letterValues[char] ?? (/\d/.test(char) ? Number(char) : char === "_" ? -1 : Number.NaN)

/** The check letter HMRC expects in the 5th place of a 13-character Accounts Office reference, if any can be. */
export const accountsOfficeCheckLetter = (reference: string): string | undefined => {
  let sum = 0
  for (let i = 0; i < weights.length; i++) sum += weights[i]! * valueOf(reference[i] ?? "")
  return Number.isNaN(sum) ? undefined : checkLetters[((sum % 23) + 23) % 23]
}

/** True for an Accounts Office reference in its stored form whose check letter is HMRC's. */
export const isValidAccountsOfficeReference = (reference: string): boolean => {
  if (!accountsOfficeShape.test(reference)) return false
  if (reference[4] !== accountsOfficeCheckLetter(reference)) return false
  if (reference.startsWith("961"))
    return reference[12] === "X" ? reference[5] === "0" : /^961P[A-Z]\d{8}$/.test(reference)
  return true
}

const accountsOfficeMessage = (reference: string): string => {
  const example = "for example 123PW12345678"
  if (!accountsOfficeShape.test(reference))
    return `Must be a 13-character Accounts Office reference: 3 digits, P, a check letter and 8 more characters, ${example}`
  const expected = accountsOfficeCheckLetter(reference)
  if (reference[4] !== expected)
    return `The check letter (5th character) does not match the rest of the reference: HMRC's check gives ${expected} for these digits; copy the reference from HMRC's letter, ${example}`
  return "An Accounts Office reference of the 961 office has 8 digits after its check letter, or 0 as its 6th character when it ends in X, for example 961PA0045782X"
}

/** The contractor's Accounts Office reference (CIS300 `AOref`): `123PW12345678`, with HMRC's check letter. */
export const AccountsOfficeReference = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter((s) => isValidAccountsOfficeReference(s) || accountsOfficeMessage(s)),
    Schema.brand("AccountsOfficeReference")
  ),
  { strict: true, decode: compact, encode: (reference) => reference }
).annotations({ title: "AccountsOfficeReference", examples: ["123PW12345678" as never] })
export type AccountsOfficeReference = typeof AccountsOfficeReference.Type

/** The PAYE scheme a contractor files its CIS returns and verifications under. */
export class CisScheme extends Schema.Class<CisScheme>("CisScheme")({
  employerReference: EmployerReference.annotations({
    description: "Employer PAYE reference: 3-digit tax office number, /, up to 10 letters and digits"
  }),
  accountsOfficeReference: AccountsOfficeReference.annotations({
    description: "13-character Accounts Office reference with HMRC's check letter"
  })
}) {}
