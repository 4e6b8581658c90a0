import { Schema } from "effect"

// HMRC's Nino.scala: D F I Q U V never appear as either letter, O never as the second.
const shape = /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/
const unusedPrefixes: ReadonlySet<string> = new Set(["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"])

/** Spaces removed, upper case: the stored form. */
export const normaliseNiNumber = (input: string): string => input.replace(/\s+/g, "").toUpperCase()

/** True for a complete NINO (suffix A–D required) in its stored form. */
export const isNormalisedNiNumber = (nino: string): boolean => shape.test(nino) && !unusedPrefixes.has(nino.slice(0, 2))

/** True for a complete NINO (suffix A–D required) after normalisation. */
export const isValidNiNumber = (input: string): boolean => isNormalisedNiNumber(normaliseNiNumber(input))

/** A National Insurance number, decoded to upper case without spaces. */
export const NiNumber = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.filter(
      (s) =>
        isNormalisedNiNumber(s) ||
        "Must be a National Insurance number: 2 letters, 6 digits and a final letter A, B, C or D, for example AB123456C"
    ),
    Schema.brand("NiNumber")
  ),
  { strict: true, decode: normaliseNiNumber, encode: (nino) => nino }
).annotations({ title: "NiNumber", examples: ["AB123456C" as never] })
export type NiNumber = typeof NiNumber.Type
