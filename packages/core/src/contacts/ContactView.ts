import { Schema } from "effect"
import { PlainCisDetails } from "../cis/CisDetailsFormat.js"
import { type Contact, notVerified, SupplierSettings, Verification } from "./Contact.js"

const fields = {
  code: Schema.String.annotations({ description: "Identifies the contact in paths; matched case-insensitively" }),
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  externalId: Schema.NullOr(Schema.String),
  isCustomer: Schema.Boolean,
  isSupplier: Schema.Boolean,
  isCisSubcontractor: Schema.Boolean,
  vatRegistered: Schema.Boolean,
  vatNumber: Schema.NullOr(Schema.String),
  lastSdcDate: Schema.NullOr(Schema.String).annotations({ description: "YYYY-MM-DD" }),
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
 * A contact as the API shows it, and as the `data` of its events. The role-specific parts are
 * null for a contact without the role.
 */
export const ContactDto = Schema.Struct(fields).annotations({ identifier: "ContactDto", examples: [example] })
export type ContactDto = typeof ContactDto.Type

export const contactDto = (contact: Contact): ContactDto => ({
  code: contact.code,
  name: contact.name,
  email: contact.email,
  externalId: contact.externalId,
  isCustomer: contact.isCustomer,
  isSupplier: contact.isSupplier,
  isCisSubcontractor: contact.isCisSubcontractor,
  vatRegistered: contact.vatRegistered,
  vatNumber: contact.vatNumber,
  lastSdcDate: contact.lastSdcDate,
  cisDetails: contact.isCisSubcontractor && contact.cisDetails ? { ...contact.cisDetails } : null,
  verification: contact.isCisSubcontractor ? contact.verification : null,
  supplierSettings: contact.isSupplier ? contact.supplierSettings : null,
  createdAt: contact.createdAt,
  updatedAt: contact.updatedAt
})

/**
 * What {@link ContactDto} encodes to, built directly rather than by the schema: every list page
 * encodes up to 50 contacts. The tests hold it equal to the schema's encoding.
 */
export const contactDtoJson = (dto: ContactDto): typeof ContactDto.Encoded => ({
  ...dto,
  cisDetails: dto.cisDetails && { ...dto.cisDetails },
  verification: dto.verification && {
    status: dto.verification.status,
    verificationNumber: dto.verification.verificationNumber,
    taxTreatment: dto.verification.taxTreatment,
    verifiedAt: dto.verification.verifiedAt?.toISOString() ?? null,
    source: dto.verification.source,
    message: dto.verification.message
  },
  supplierSettings: dto.supplierSettings && {
    defaultVatRate: dto.supplierSettings.defaultVatRate,
    paymentTermsDays: dto.supplierSettings.paymentTermsDays
  },
  createdAt: dto.createdAt.toISOString(),
  updatedAt: dto.updatedAt.toISOString()
})

/** The JSON of a contact, as API callers and webhook receivers get it. */
export const contactJson = (contact: Contact) => contactDtoJson(contactDto(contact))
