import { Schema } from "effect"

/**
 * Names in the form HMRC's CIS schemas take them (`core-v2-0.xsd`'s NameStructure, the
 * `TradingName` of `CISreturn-v1-2.xsd` and `CISverification-v1-2.xsd`):
 * - a title (`Ttl`): 1–4 letters, `'` or `-`, starting with a letter;
 * - up to two forenames (`Fore`): each 1–35 letters, `'` or `-`, starting with a letter (no space);
 * - a surname (`Sur`): 1–35 letters, digits, spaces and `, . ( ) / & - '`;
 * - a trading name: 1–56 characters of HMRC's PAYE character set (ASCII letters, digits, space
 *   and `~ ! " @ # $ % & ' ( ) * + , - . / : ; < = > ? [ \ ] ^ _ { }`, `£`, `€`), not starting
 *   with a space.
 *
 * A name is put in that form, never changed in what it says: typographic apostrophes, quotes and
 * dashes become their ASCII forms, accented and other Latin letters their plain ones (`Café` →
 * `Cafe`, `Straße` → `Strasse`), runs of spaces one space. A first name of two words is HMRC's two
 * forenames (a second name comes after them; HMRC holds two). A title HMRC does not take is left
 * out (`Professor`; `Dr.` is sent as `Dr`). What still does not fit is refused where it is
 * entered, with HMRC's rule ({@link hmrcNameProblems}).
 */

/** Letters that do not decompose into a plain letter and accents. */
const otherLetters: Readonly<Record<string, string>> = {
  ß: "ss",
  ẞ: "SS",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  Ø: "O",
  ø: "o",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ð: "D",
  ð: "d",
  Þ: "Th",
  þ: "th",
  ı: "i",
  Ħ: "H",
  ħ: "h"
}

/** Typographic punctuation and its ASCII form. */
const typographic: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u02BC\u02BB\u0060\u00B4]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D]/g, "-"]
]

/** Printable ASCII without a backtick, no two white spaces together. */
const PLAIN = /^(?:[!-_a-~]| (?! ))*$/

/**
 * A text in HMRC's characters as far as it can be: typographic punctuation made ASCII, letters
 * stripped of their accents or spelled in plain letters, white space one space, trimmed. Letters
 * of other alphabets stay as they are (and the schema refuses them).
 */
export const hmrcCharacters = (text: string): string => {
  // Most names are plain ASCII already (a backtick aside): nothing to do but trim (an import reads 10,000).
  if (PLAIN.test(text)) return text.trim()
  let plain = text
  for (const [pattern, ascii] of typographic) plain = plain.replace(pattern, ascii)
  return plain
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[ßẞÆæŒœØøŁłĐđÐðÞþıĦħ]/g, (letter) => otherLetters[letter] ?? letter)
    .replace(/\s+/g, " ")
    .trim()
}

const TITLE = /^[A-Za-z][A-Za-z'-]{0,3}$/
const FORENAME = /^[A-Za-z][A-Za-z'-]{0,34}$/
const SURNAME = /^[A-Za-z0-9 ,.()/&'-]{1,35}$/
const TRADING_NAME =
  /^[A-Za-z0-9~!"@#$%&'()*+,\-./:;<=>?[\\\]^_{}£€][A-Za-z0-9 ~!"@#$%&'()*+,\-./:;<=>?[\\\]^_{}£€]{0,55}$/

/** Full stops dropped: `Dr.` is HMRC's `Dr`, `J.` its `J`. */
const withoutFullStops = (text: string) => hmrcCharacters(text).replace(/\./g, "").trim()

/** The title as HMRC takes it, or null when it takes none (`Professor`, `Rt Hon`). */
export const hmrcTitle = (title: string | null): string | null => {
  if (title === null) return null
  const form = withoutFullStops(title)
  return TITLE.test(form) ? form : null
}

const words = (name: string | null) => (name === null ? [] : withoutFullStops(name).split(" ").filter(Boolean))

/** The forenames HMRC takes: the words of the first name, then of the second name, the first two of them. */
export const hmrcForenames = (firstName: string | null, secondName: string | null): ReadonlyArray<string> =>
  [...words(firstName), ...words(secondName)].slice(0, 2)

export const hmrcSurname = (lastName: string): string => hmrcCharacters(lastName)

export const hmrcTradingName = (tradingName: string): string => hmrcCharacters(tradingName)

/** An individual's name as HMRC's NameStructure holds it. */
export interface HmrcPersonName {
  readonly title: string | null
  /** One or two. */
  readonly forenames: ReadonlyArray<string>
  readonly surname: string
}

/** The name of an individual in HMRC's form, when it has a forename and a surname. */
export const hmrcPersonName = (name: {
  readonly title: string | null
  readonly firstName: string | null
  readonly secondName: string | null
  readonly lastName: string | null
}): HmrcPersonName | null => {
  const forenames = hmrcForenames(name.firstName, name.secondName)
  if (forenames.length === 0 || name.lastName === null) return null
  return { title: hmrcTitle(name.title), forenames, surname: hmrcSurname(name.lastName) }
}

/** The name members HMRC's forms carry. */
export interface HmrcNamed {
  readonly title: string | null
  readonly firstName: string | null
  readonly secondName: string | null
  readonly lastName: string | null
  readonly tradingName: string | null
}

export const FORENAME_RULE =
  "HMRC takes a forename of 1–35 letters (A–Z), apostrophes and hyphens, starting with a letter"
export const SURNAME_RULE = "HMRC takes a surname of 1–35 letters (A–Z), digits, spaces and , . ( ) / & - '"
export const TRADING_NAME_RULE =
  "HMRC takes a name of 1–56 characters: letters (A–Z), digits, spaces and ~ ! \" @ # $ % & ' ( ) * + , - . / : ; < = > ? [ \\ ] ^ _ { } £ €"

const outside = (form: string, allowed: RegExp) => {
  const refused = [...new Set([...form].filter((c) => !allowed.test(c)))]
  return refused.length === 0 ? "" : ` (it cannot take ${refused.map((c) => `"${c}"`).join(", ")})`
}

const forenameProblem = (name: string | null): string | null => {
  const bad = words(name).filter((word) => !FORENAME.test(word))
  if (bad.length === 0) return null
  return `${FORENAME_RULE}; a name of two words is sent as two forenames${outside(bad.join(""), /[A-Za-z'-]/)}`
}

/**
 * The name members HMRC could never take, each with HMRC's rule: a forename word, a surname or a
 * trading name too long or with characters outside HMRC's set once in its form. A title is never
 * refused (one HMRC does not take is left out). Empty when every name can be sent.
 */
export const hmrcNameProblems = (name: HmrcNamed): Readonly<Partial<Record<keyof HmrcNamed, string>>> => {
  const problems: Partial<Record<keyof HmrcNamed, string>> = {}
  const firstName = forenameProblem(name.firstName)
  if (firstName !== null) problems.firstName = firstName
  const secondName = forenameProblem(name.secondName)
  if (secondName !== null) problems.secondName = secondName
  if (name.lastName !== null) {
    const form = hmrcSurname(name.lastName)
    if (!SURNAME.test(form)) problems.lastName = `${SURNAME_RULE}${outside(form, /[A-Za-z0-9 ,.()/&'-]/)}`
  }
  if (name.tradingName !== null) {
    const form = hmrcTradingName(name.tradingName)
    if (!TRADING_NAME.test(form))
      problems.tradingName = `${TRADING_NAME_RULE}${outside(form, /[A-Za-z0-9 ~!"@#$%&'()*+,\-./:;<=>?[\\\]^_{}£€]/)}`
  }
  return problems
}

/**
 * Refuses CIS details whose names HMRC could never take, naming each member with HMRC's rule:
 * applied where details are entered (contacts, the tenant's CIS details), not where stored ones
 * are read back.
 */
export const inHmrcNameForms = <A extends HmrcNamed, I, R>(schema: Schema.Schema<A, I, R>) =>
  schema.pipe(
    Schema.filter((details) =>
      Object.entries(hmrcNameProblems(details)).map(([member, message]) => ({ path: [member], message }))
    )
  )
