import { Schema, Struct } from "effect"
import { PlainCisDetails } from "../cis/CisDetailsFormat.js"
import { Contact, notVerified, SupplierSettings, Verification } from "./Contact.js"

/** The contact's members that the wire shows as the model holds them. */
const plainMembers = [
  "name",
  "email",
  "externalId",
  "isCustomer",
  "isSupplier",
  "isCisSubcontractor",
  "vatRegistered",
  "vatNumber",
  "lastSdcDate"
] as const

/**
 * The contact's plain members on the wire, the model's own schemas but for the email, plain text:
 * a contact's events and API answers show them, and so does an import row's subcontractor.
 */
export const contactPlainFields = {
  ...Struct.pick(Contact.fields, ...plainMembers),
  email: Schema.NullOr(Schema.String)
}

const fields = {
  code: Schema.String.annotations({ description: "Identifies the contact in paths; matched case-insensitively" }),
  ...contactPlainFields,
  lastSdcDate: contactPlainFields.lastSdcDate.annotations({ description: "YYYY-MM-DD" }),
  cisDetails: Schema.NullOr(PlainCisDetails).annotations({
    description: "The CIS identity; null unless the contact is a CIS subcontractor"
  }),
  verification: Schema.NullOr(Verification).annotations({
    description: "The subcontractor's verification with HMRC; null unless the contact is a CIS subcontractor"
  }),
  supplierSettings: Schema.NullOr(SupplierSettings).annotations({
    description: "null unless the contact is a supplier"
  }),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}

const example: Schema.Struct.Type<typeof fields> = {
  code: "SMITHJ",
  name: "John Smith Groundworks",
  email: "john@smith-groundworks.example",
  externalId: null,
  isCustomer: false,
  isSupplier: true,
  isCisSubcontractor: true,
  vatRegistered: true,
  vatNumber: "GB123456789",
  lastSdcDate: null,
  cisDetails: {
    type: "SoleTrader",
    title: "Mr",
    firstName: "John",
    secondName: null,
    lastName: "Smith",
    tradingName: "John Smith Groundworks",
    utr: "2234567890",
    niNumber: "AB123456C",
    companyNumber: null
  },
  verification: notVerified,
  supplierSettings: new SupplierSettings({ defaultVatRate: "Standard", paymentTermsDays: 30 }),
  createdAt: new Date("2026-11-21T10:15:00.000Z"),
  updatedAt: new Date("2026-11-21T10:15:00.000Z")
}

/**
 * The `data` of a contact's events (contact.created, .updated, .deleted, subcontractor.created),
 * written with the change in its transaction; the API answers the same shape (the sdk's
 * ContactDto). The role-specific parts are null for a contact without the role.
 */
export const ContactEventData = Schema.Struct(fields).annotations({ identifier: "ContactDto", examples: [example] })
export type ContactEventData = typeof ContactEventData.Type

export const contactEventData = (contact: Contact): ContactEventData => ({
  code: contact.code,
  ...Struct.pick(contact, ...plainMembers),
  cisDetails: contact.isCisSubcontractor && contact.cisDetails ? { ...contact.cisDetails } : null,
  verification: contact.isCisSubcontractor ? contact.verification : null,
  supplierSettings: contact.isSupplier ? contact.supplierSettings : null,
  createdAt: contact.createdAt,
  updatedAt: contact.updatedAt
})

/**
 * What {@link ContactEventData} encodes to, built directly rather than by the schema: every list
 * page encodes up to 50 contacts. The tests hold it equal to the schema's encoding.
 */
export const encodeContactEventData = (data: ContactEventData): typeof ContactEventData.Encoded => ({
  ...data,
  cisDetails: data.cisDetails && { ...data.cisDetails },
  verification: data.verification && {
    status: data.verification.status,
    verificationNumber: data.verification.verificationNumber,
    taxTreatment: data.verification.taxTreatment,
    verifiedAt: data.verification.verifiedAt?.toISOString() ?? null,
    source: data.verification.source,
    message: data.verification.message
  },
  supplierSettings: data.supplierSettings && {
    defaultVatRate: data.supplierSettings.defaultVatRate,
    paymentTermsDays: data.supplierSettings.paymentTermsDays
  },
  createdAt: data.createdAt.toISOString(),
  updatedAt: data.updatedAt.toISOString()
})

/** The JSON of a contact, as webhook receivers (and API callers) get it. */
export const contactEventJson = (contact: Contact) => encodeContactEventData(contactEventData(contact))
