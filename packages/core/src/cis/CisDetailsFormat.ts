import { Effect, ParseResult, Schema } from "effect"
import { CisDetails, CisType } from "./CisDetails.js"

const Member = Schema.NullOr(Schema.String)

/** What {@link CisDetailsFormat} decodes to: every member present, strings normalised, nothing branded. */
export const PlainCisDetails = Schema.Struct({
  type: CisType,
  title: Member,
  firstName: Member,
  secondName: Member,
  lastName: Member,
  tradingName: Member,
  utr: Member,
  niNumber: Member,
  companyNumber: Member
})
export type PlainCisDetails = typeof PlainCisDetails.Type

/**
 * A CIS identity as it comes over the wire: checked and normalised exactly as {@link CisDetails}
 * (an invalid member is reported under its own name), but decoded to plain strings, so that a
 * client can write one as an object literal.
 */
export const CisDetailsFormat = Schema.transformOrFail(Schema.encodedSchema(CisDetails), PlainCisDetails, {
  strict: true,
  decode: (input, options) => ParseResult.decodeUnknown(CisDetails)(input, options).pipe(Effect.map((d) => ({ ...d }))),
  encode: ParseResult.succeed
}).annotations({
  identifier: "CisDetails",
  description:
    "utr: 10 digits with a valid HMRC check digit (spaces and a K are dropped); niNumber: 2 letters, 6 digits and A–D (stored upper case without spaces); companyNumber: 8 characters, Companies House format. Blank members are null.",
  examples: [
    {
      type: "SoleTrader",
      title: "Mr",
      firstName: "John",
      secondName: null,
      lastName: "Smith",
      tradingName: "John Smith Groundworks",
      utr: "2234567890",
      niNumber: "AB123456C",
      companyNumber: null
    }
  ]
})
