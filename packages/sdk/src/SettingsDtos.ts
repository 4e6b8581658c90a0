import { CalendarDate } from "@cisbook/core/CalendarDate"
import { CisType } from "@cisbook/core/cis/CisDetails"
import { CredentialsStatus, Filer } from "@cisbook/core/credentials/HmrcCredentials"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

const utr = "10-digit Unique Taxpayer Reference with a valid HMRC check digit; spaces and a K are ignored"
const niNumber = "National Insurance number (suffix A–D); spaces are ignored and it is stored upper case"
const companyNumber = "8-character Companies House number, stored upper case (SC1234 is stored SC001234)"

const text = (description: string) => Schema.String.annotations({ description })

export const UpdateTenantCisDetailsRequest = requestBody("UpdateTenantCisDetailsRequest", {
  type: CisType,
  title: optional(Schema.String),
  firstName: optional(Schema.String),
  secondName: optional(Schema.String),
  lastName: optional(Schema.String),
  tradingName: optional(Schema.String),
  utr: optional(text(utr).annotations({ examples: ["2234567890", "K2234567890"] })),
  niNumber: optional(text(niNumber).annotations({ examples: ["AB123456C", "ab 12 34 56 c"] })),
  companyNumber: optional(text(companyNumber).annotations({ examples: ["SC001234", "12345678"] })),
  partnerUtr: optional(
    text(`A Partnership's nominated partner's own UTR: ${utr}`).annotations({ examples: ["4345678912"] })
  )
}).annotations({
  description:
    "The tenant's CIS identity, replaced whole: an omitted or null member is cleared. Blank means null. Names must fit HMRC's forms (a forename or surname of at most 35 characters, a trading name of at most 56, in HMRC's character set once typographic punctuation and accents are made plain); one that cannot is 400 naming the member with HMRC's rule."
})

const stored = (description: string, example: string) =>
  Schema.NullOr(Schema.String).annotations({ description, examples: [example] })

export class TenantCisDetailsDto extends Schema.Class<TenantCisDetailsDto>("TenantCisDetailsDto")(
  {
    type: Schema.NullOr(CisType).annotations({ description: "null, like every member, until the details are set" }),
    title: stored("Trimmed; null when blank", "Ms"),
    firstName: stored("Trimmed; null when blank", "Ada"),
    secondName: stored("Trimmed; null when blank", "Augusta"),
    lastName: stored("Trimmed; null when blank", "Lovelace"),
    tradingName: stored("Trimmed; null when blank", "Lovelace Joinery"),
    utr: stored("10 digits", "2234567890"),
    niNumber: stored("Upper case, without spaces", "AB123456C"),
    companyNumber: stored("8 characters, upper case", "SC001234"),
    partnerUtr: stored("A Partnership's nominated partner's UTR, 10 digits", "4345678912")
  },
  { description: "The tenant's own CIS identity, as shared with contractors" }
) {}

const employerReference =
  "Employer PAYE reference: the 3-digit tax office number, a slash and up to 10 letters and digits; spaces are ignored and it is stored upper case"
const accountsOfficeReference =
  "Accounts Office reference: 13 characters, 3 digits, P, HMRC's check letter and 8 more; spaces are ignored and it is stored upper case"

export const UpdateCisSchemeRequest = requestBody("UpdateCisSchemeRequest", {
  employerReference: text(employerReference).annotations({ examples: ["123/AB45678", "123/ab 45678"] }),
  accountsOfficeReference: text(accountsOfficeReference).annotations({ examples: ["123PW12345678"] }),
  registeredFrom: optional(
    CalendarDate.annotations({
      description:
        "The date (YYYY-MM-DD) the contractor's CIS registration with HMRC began: its returns are due from that date's tax month on. Left out, it is the date the registration was first set here, and a later PUT without it keeps the recorded one",
      examples: ["2025-04-06"]
    })
  )
}).annotations({
  description:
    "The PAYE scheme the tenant files CIS returns and verifies subcontractors under, as on HMRC's letters (both references are required), and the date its CIS registration began."
})

export class CisSchemeDto extends Schema.Class<CisSchemeDto>("CisSchemeDto")(
  {
    employerReference: stored("Upper case, without spaces; null until set", "123/AB45678"),
    accountsOfficeReference: stored("Upper case, without spaces; null until set", "123PW12345678"),
    registeredFrom: Schema.NullOr(Schema.String).annotations({
      description:
        "The date the contractor's CIS registration with HMRC began (returns are due from its tax month on); null until set",
      format: "date",
      examples: ["2025-04-06"]
    })
  },
  {
    description:
      "The tenant's CIS scheme registration: its employer PAYE reference, Accounts Office reference and the date its CIS registration began"
  }
) {}

export const UpdateHmrcCredentialsRequest = requestBody("UpdateHmrcCredentialsRequest", {
  gatewayUserId: text(
    "The Government Gateway user id enrolled for the contractor's CIS scheme (or its agent's)"
  ).annotations({ examples: ["123456789012"] }),
  password: text(
    "The Government Gateway password: stored encrypted, sent only to HMRC, never answered, logged or put in an event"
  ).annotations({ format: "password", writeOnly: true }),
  filer: optional(
    Filer.annotations({
      description:
        "Contractor (the default): the contractor files with its own credentials. Agent: an agent files for its client with the agent's credentials (GovTalk's IRheader Sender is Agent)."
    })
  )
}).annotations({
  description:
    "The Government Gateway credentials the tenant's returns and verifications are sent to HMRC with; they replace any set before."
})

export class HmrcCredentialsDto extends Schema.Class<HmrcCredentialsDto>("HmrcCredentialsDto")(
  {
    gatewayUserId: Schema.String.annotations({ examples: ["123456789012"] }),
    filer: Filer,
    status: CredentialsStatus.annotations({
      description:
        "Unchecked: not used yet. Accepted: HMRC accepted a message sent with them. Refused: HMRC answered an authentication failure; the tenant's returns are Held and its verifications wait until the credentials are replaced."
    }),
    updatedAt: Schema.Date.annotations({ description: "When they were set" })
  },
  { description: "The tenant's Government Gateway credentials, without the password (which is never answered)" }
) {}
