import { Schema } from "effect"
import { CalendarDate } from "../CalendarDate.js"
import { CisDetailsFormat } from "../cis/CisDetailsFormat.js"
import { EmailAddress } from "../Email.js"
import { ContactName, VatRate } from "./Contact.js"

/** Omitted and `null` mean the same. */
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { nullable: true })

const Flag = optional(Schema.Boolean).annotations({ description: "Default false" })

export const ExternalId = Schema.Trim.pipe(
  Schema.maxLength(100, { message: () => "An external id has at most 100 characters" })
)

export const VatNumber = Schema.Trim.pipe(
  Schema.maxLength(20, { message: () => "A VAT number has at most 20 characters" }),
  Schema.annotations({ examples: ["GB123456789"] })
)

export const PaymentTermsDays = Schema.Int.pipe(
  Schema.between(0, 365, { message: () => "Must be a whole number of days from 0 to 365" })
)

export const SupplierSettingsInput = Schema.Struct({
  defaultVatRate: VatRate,
  paymentTermsDays: optional(PaymentTermsDays)
}).annotations({
  identifier: "SupplierSettingsInput",
  examples: [{ defaultVatRate: "Standard", paymentTermsDays: 30 }]
})
export type SupplierSettingsInput = typeof SupplierSettingsInput.Type

/** The members of a new contact, as they come over the wire (CreateContactRequest). */
export const NewContactFields = {
  name: ContactName.annotations({ description: "The display name; the code is generated from it" }),
  email: optional(EmailAddress),
  externalId: optional(ExternalId).annotations({ description: "Your own reference for the contact" }),
  isCustomer: Flag,
  isSupplier: Flag,
  isCisSubcontractor: Flag.annotations({ description: "Default false. A CIS subcontractor must also be a supplier." }),
  vatRegistered: Flag,
  vatNumber: optional(VatNumber),
  lastSdcDate: optional(CalendarDate).annotations({
    description: "Date of the last subcontractor deduction statement"
  }),
  cisDetails: optional(CisDetailsFormat).annotations({
    description: "For a CIS subcontractor; omitted, it is an empty SoleTrader identity"
  }),
  supplierSettings: optional(SupplierSettingsInput).annotations({
    description: "For a supplier; omitted, the default VAT rate is Standard when vatRegistered, else NoVat"
  })
}
export type NewContact = Schema.Struct.Type<typeof NewContactFields>

/**
 * Every editable member of a contact, roles included (UpdateContactRequest). The code, external
 * id, last SDC date and verification are not editable.
 */
export const ContactReplacementFields = {
  name: ContactName,
  email: optional(EmailAddress),
  isCustomer: Schema.Boolean,
  isSupplier: Schema.Boolean,
  isCisSubcontractor: Schema.Boolean.annotations({ description: "A CIS subcontractor must also be a supplier." }),
  vatRegistered: Schema.Boolean,
  vatNumber: optional(VatNumber),
  cisDetails: optional(CisDetailsFormat).annotations({ description: "Required when isCisSubcontractor is true" }),
  supplierSettings: optional(SupplierSettingsInput).annotations({ description: "Required when isSupplier is true" })
}
export type ContactReplacement = Schema.Struct.Type<typeof ContactReplacementFields>
