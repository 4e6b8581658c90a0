import { ParseResult, Schema } from "effect"
import { CompanyNumber } from "./CompanyNumber.js"
import { NiNumber } from "./NiNumber.js"
import { Utr } from "./Utr.js"

export const CisType = Schema.Literal("SoleTrader", "Partnership", "Company", "Trust").annotations({
  message: () => ({ message: "Must be one of SoleTrader, Partnership, Company or Trust", override: true })
})
export type CisType = typeof CisType.Type

/** HMRC's own name fields are shorter; this bounds what is stored and copied into events. */
export const MAX_CIS_TEXT_LENGTH = 200

/** Trimmed; a blank string means absent. */
const Text = Schema.transform(
  Schema.Union(Schema.String, Schema.Null, Schema.Undefined).annotations({
    message: () => ({ message: "Must be a string or null", override: true })
  }),
  Schema.NullOr(
    Schema.String.pipe(
      Schema.maxLength(MAX_CIS_TEXT_LENGTH, {
        message: () => `Must be at most ${MAX_CIS_TEXT_LENGTH} characters`
      })
    )
  ),
  { strict: true, decode: (s) => (s == null || s.trim() === "" ? null : s.trim()), encode: (s) => s }
)

// Decoded by hand rather than with NullOr(code), whose union would add "Expected null" to the
// code's own message.
const Code = <A>(code: Schema.Schema<A, string>) =>
  Schema.transformOrFail(Text, Schema.NullOr(Schema.typeSchema(code)), {
    strict: true,
    decode: (s, options) => (s === null ? ParseResult.succeed(null) : ParseResult.decodeUnknown(code)(s, options)),
    encode: (a, options) => (a === null ? ParseResult.succeed(null) : ParseResult.encodeUnknown(code)(a, options))
  })

// May be omitted, undefined or null on the wire; always present (possibly null) once decoded.
const optional = <A, I>(value: Schema.Schema<A | null, I>) =>
  Schema.optionalWith(value, { exact: true, default: () => null })

export class CisDetails extends Schema.Class<CisDetails>("CisDetails")({
  type: CisType,
  title: optional(Text),
  firstName: optional(Text),
  secondName: optional(Text),
  lastName: optional(Text),
  tradingName: optional(Text),
  utr: optional(Code(Utr)).annotations({ description: "10-digit UTR with a valid HMRC check digit" }),
  niNumber: optional(Code(NiNumber)).annotations({ description: "National Insurance number with suffix A–D" }),
  companyNumber: optional(Code(CompanyNumber)).annotations({ description: "8-character Companies House number" }),
  partnerUtr: optional(Code(Utr)).annotations({
    description: "A partnership's nominated partner's own UTR (10 digits with a valid HMRC check digit)"
  })
}) {}

/** The wire form: plain strings or nulls, optional members may be omitted. */
export type CisDetailsEncoded = typeof CisDetails.Encoded

export const emptySoleTrader: CisDetails = new CisDetails({ type: "SoleTrader" })

/** The identity members {@link missingForType} reads. */
export interface CisIdentity {
  readonly type: CisType
  readonly firstName: string | null
  readonly lastName: string | null
  readonly tradingName: string | null
  readonly utr: string | null
  readonly niNumber: string | null
  readonly companyNumber: string | null
  readonly partnerUtr: string | null
}

/**
 * What the type still needs before HMRC can be asked to verify it: member names, or
 * "a or b" when either will do. Empty when complete.
 */
export const missingForType = (details: CisIdentity): ReadonlyArray<string> => {
  const missing: Array<string> = []
  const need = (label: string, ...values: ReadonlyArray<string | null>) => {
    if (values.every((v) => v === null || v.trim() === "")) missing.push(label)
  }
  switch (details.type) {
    case "SoleTrader":
      need("firstName", details.firstName)
      need("lastName", details.lastName)
      need("utr or niNumber", details.utr, details.niNumber)
      break
    case "Company":
      need("tradingName", details.tradingName)
      need("utr or companyNumber", details.utr, details.companyNumber)
      break
    case "Partnership":
      // HMRC verifies a partnership through its nominated partner: the firm's name and UTR, and
      // the partner's name and own UTR or NINO.
      need("tradingName", details.tradingName)
      need("utr", details.utr)
      need("firstName", details.firstName)
      need("lastName", details.lastName)
      need("partnerUtr or niNumber", details.partnerUtr, details.niNumber)
      break
    case "Trust":
      need("tradingName", details.tradingName)
      need("utr", details.utr)
  }
  return missing
}
