import { Effect, ParseResult, Schema } from "effect"
import { CisDetails, CisType } from "./CisDetails.js"
import { inHmrcNameForms } from "./HmrcNames.js"

const Member = Schema.NullOr(Schema.String)

const HmrcNamedCisDetails = inHmrcNameForms(CisDetails)

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
  companyNumber: Member,
  /** Optional, so that a client written before it still builds its requests. */
  partnerUtr: Schema.optional(Member)
})
export type PlainCisDetails = typeof PlainCisDetails.Type

/**
 * A CIS identity as it comes over the wire: checked and normalised exactly as {@link CisDetails}
 * (an invalid member is reported under its own name), but decoded to plain strings, so that a
 * client can write one as an object literal.
 */
export const CisDetailsFormat = Schema.transformOrFail(Schema.encodedSchema(CisDetails), PlainCisDetails, {
  strict: true,
  // Names are checked on the way in only: a client encoding its request sends what it has.
  decode: (input, options) =>
    ParseResult.decodeUnknown(HmrcNamedCisDetails)(input, options).pipe(Effect.map((d) => ({ ...d }))),
  encode: ParseResult.succeed
}).annotations({
  identifier: "CisDetails",
  description:
    "utr and partnerUtr: 10 digits with a valid HMRC check digit (spaces and a K are dropped); niNumber: 2 letters, 6 digits and A–D (stored upper case without spaces); companyNumber: 8 characters, Companies House format. Blank members are null. A Partnership is the firm (tradingName, utr) and its nominated partner (firstName, lastName, and partnerUtr or niNumber), as HMRC verifies it. Names must fit HMRC's forms: a first name of two words is sent as two forenames, typographic apostrophes and dashes and accented letters are sent in their plain forms, a title HMRC does not take is left out; a forename or surname longer than 35 characters, a trading name longer than 56, or characters HMRC cannot take are refused with HMRC's rule.",
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
      companyNumber: null,
      partnerUtr: null
    }
  ]
})
