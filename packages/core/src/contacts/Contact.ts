import { Schema } from "effect"
import { CisDetails } from "../cis/CisDetails.js"
import { Email } from "../Email.js"
import { ContactId, TenantId } from "../Ids.js"

export const ContactRole = Schema.Literal("Customer", "Supplier", "CisSubcontractor")
export type ContactRole = typeof ContactRole.Type

export const VerificationStatus = Schema.Literal("Verified", "NotVerified", "Error")
export type VerificationStatus = typeof VerificationStatus.Type

/** Gross 0 %, Net 20 %, Unmatched 30 % CIS deduction. */
export const TaxTreatment = Schema.Literal("Gross", "Net", "Unmatched")
export type TaxTreatment = typeof TaxTreatment.Type

export const VerificationSource = Schema.Literal("Hmrc", "Manual")
export type VerificationSource = typeof VerificationSource.Type

export const VatRate = Schema.Literal("Standard", "Reduced", "Zero", "Exempt", "NoVat", "ReverseCharge")
export type VatRate = typeof VatRate.Type

export const ContactName = Schema.Trim.pipe(
  Schema.minLength(1, { message: () => "A name is required" }),
  Schema.maxLength(200, { message: () => "A name has at most 200 characters" })
)

/** A subcontractor's standing with HMRC. */
export class Verification extends Schema.Class<Verification>("Verification")({
  status: VerificationStatus,
  verificationNumber: Schema.NullOr(Schema.String),
  taxTreatment: Schema.NullOr(TaxTreatment),
  verifiedAt: Schema.NullOr(Schema.Date),
  source: Schema.NullOr(VerificationSource),
  message: Schema.NullOr(Schema.String)
}) {}

/** The record every new subcontractor starts with. */
export const notVerified = new Verification({
  status: "NotVerified",
  verificationNumber: null,
  taxTreatment: null,
  verifiedAt: null,
  source: null,
  message: null
})

export class SupplierSettings extends Schema.Class<SupplierSettings>("SupplierSettings")({
  defaultVatRate: VatRate,
  paymentTermsDays: Schema.NullOr(Schema.Int)
}) {}

const vatRegisteredDefaults = new SupplierSettings({ defaultVatRate: "Standard", paymentTermsDays: null })
const notVatRegisteredDefaults = new SupplierSettings({ defaultVatRate: "NoVat", paymentTermsDays: null })

/** The default settings of a supplier: the VAT rate follows the VAT-registered flag. */
export const defaultSupplierSettings = (vatRegistered: boolean): SupplierSettings =>
  vatRegistered ? vatRegisteredDefaults : notVatRegisteredDefaults

export class Contact extends Schema.Class<Contact>("Contact")({
  id: ContactId,
  tenantId: TenantId,
  /** Upper-case letters and digits, unique in the tenant and never reused. */
  code: Schema.String,
  name: Schema.String,
  email: Schema.NullOr(Email),
  externalId: Schema.NullOr(Schema.String),
  isCustomer: Schema.Boolean,
  isSupplier: Schema.Boolean,
  isCisSubcontractor: Schema.Boolean,
  vatRegistered: Schema.Boolean,
  vatNumber: Schema.NullOr(Schema.String),
  /** YYYY-MM-DD. */
  lastSdcDate: Schema.NullOr(Schema.String),
  /** The CIS identity on record; kept while the contact is not a subcontractor. */
  cisDetails: Schema.NullOr(CisDetails),
  /** Kept while the contact is not a subcontractor, and back as it was when the role returns. */
  verification: Schema.NullOr(Verification),
  supplierSettings: Schema.NullOr(SupplierSettings),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
}) {}
