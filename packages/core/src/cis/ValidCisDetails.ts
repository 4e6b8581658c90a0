import { MAX_CIS_TEXT_LENGTH, type CisDetails, CisType } from "./CisDetails.js"
import { type CompanyNumber, isNormalisedCompanyNumber, normaliseCompanyNumber } from "./CompanyNumber.js"
import { isNormalisedNiNumber, type NiNumber, normaliseNiNumber } from "./NiNumber.js"
import { hasValidCheckDigit, normalisedUtr, type Utr } from "./Utr.js"

/** CIS details as the strings of a form or a file: a blank or null member is absent. */
export interface CisDetailsText {
  readonly type: string
  readonly title: string | null
  readonly firstName: string | null
  readonly secondName: string | null
  readonly lastName: string | null
  readonly tradingName: string | null
  readonly utr: string | null
  readonly niNumber: string | null
  readonly companyNumber: string | null
  /** Omitted by a caller that has no such member (a file without the column). */
  readonly partnerUtr?: string | null | undefined
}

export type CisDetailsFields = { readonly [K in keyof CisDetails]: CisDetails[K] }

const cisTypes: ReadonlySet<string> = new Set(CisType.literals)

/** A member that does not pass: the schema is left to name it. */
const invalid = Symbol("invalid")

const text = (value: string | null): string | null | typeof invalid => {
  const trimmed = value === null ? "" : value.trim()
  return trimmed.length > MAX_CIS_TEXT_LENGTH ? invalid : trimmed === "" ? null : trimmed
}

/** A code as its schema decodes it: normalised, then checked in its normalised form. */
const code = <A extends string>(
  value: string | null,
  normalise: (s: string) => string,
  isNormalisedValid: (s: string) => boolean
) => {
  const trimmed = text(value)
  if (trimmed === null || trimmed === invalid) return trimmed
  const normalised = normalise(trimmed)
  return isNormalisedValid(normalised) ? (normalised as A) : invalid
}

/**
 * What `Schema.decode(CisDetails)` gives for details it accepts, at a fraction of its cost: an
 * import analyses up to 10,000 rows twice. `undefined` when any member is not valid, for the
 * schema to decode and name every problem. A property test holds the two equal.
 */
export const validCisDetails = (details: CisDetailsText): CisDetailsFields | undefined => {
  if (!cisTypes.has(details.type)) return undefined
  const fields = {
    type: details.type as CisType,
    title: text(details.title),
    firstName: text(details.firstName),
    secondName: text(details.secondName),
    lastName: text(details.lastName),
    tradingName: text(details.tradingName),
    utr: code<Utr>(details.utr, normalisedUtr, hasValidCheckDigit),
    niNumber: code<NiNumber>(details.niNumber, normaliseNiNumber, isNormalisedNiNumber),
    companyNumber: code<CompanyNumber>(details.companyNumber, normaliseCompanyNumber, isNormalisedCompanyNumber),
    partnerUtr: code<Utr>(details.partnerUtr ?? null, normalisedUtr, hasValidCheckDigit)
  }
  return Object.values(fields).includes(invalid) ? undefined : (fields as CisDetailsFields)
}
