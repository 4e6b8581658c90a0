import { Schema } from "effect"

// The GOV.UK data-standards pattern: letters that never occur in a position are refused
// (no Q, V, X first; no I, J, Z second; no C, I, K, M, O, V in the inward code). British
// Forces (BFPO) and overseas-territory codes are not accepted.
const shape =
  /^(GIR 0AA|[A-PR-UWYZ]([0-9]{1,2}|[A-HK-Y][0-9]{1,2}|[0-9][A-HJKPS-UW]|[A-HK-Y][0-9][ABEHMNPRV-Y]) [0-9][ABD-HJLNP-UW-Z]{2})$/

/** Upper case with one space before the 3-character inward code. */
export const normalisePostcode = (input: string): string => {
  const compact = input.replace(/\s+/g, "").toUpperCase()
  return compact.length < 5 ? compact : `${compact.slice(0, -3)} ${compact.slice(-3)}`
}

export const isValidUkPostcode = (input: string): boolean => shape.test(normalisePostcode(input))

/** A UK postcode, decoded to upper case with a single space (SW1A 1AA). */
export const UkPostcode = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter((s) => shape.test(s) || "Must be a UK postcode, for example SW1A 1AA"),
    Schema.brand("UkPostcode")
  ),
  { strict: true, decode: normalisePostcode, encode: (postcode) => postcode }
).annotations({ title: "UkPostcode", examples: ["SW1A 1AA" as never] })
export type UkPostcode = typeof UkPostcode.Type
