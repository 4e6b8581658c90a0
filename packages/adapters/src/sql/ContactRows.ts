import { CisDetails, CisType } from "@cisbook/core/cis/CisDetails"
import {
  Contact,
  SupplierSettings,
  TaxTreatment,
  VatRate,
  Verification,
  VerificationSource,
  VerificationStatus
} from "@cisbook/core/contacts/Contact"
import type { Email } from "@cisbook/core/Email"
import type { ContactId, TenantId } from "@cisbook/core/Ids"
import { trustedInstance } from "@cisbook/core/TrustedInstance"
import { Schema } from "effect"

const Text = Schema.NullOr(Schema.String)

/** A contacts row as the service's client reads it (camelCase). */
export const ContactRow = Schema.Struct({
  id: Schema.String,
  tenantId: Schema.String,
  code: Schema.String,
  name: Schema.String,
  email: Text,
  externalId: Text,
  isCustomer: Schema.Boolean,
  isSupplier: Schema.Boolean,
  isCisSubcontractor: Schema.Boolean,
  vatRegistered: Schema.Boolean,
  vatNumber: Text,
  lastSdcDate: Text,
  cisType: Schema.NullOr(CisType),
  cisTitle: Text,
  cisFirstName: Text,
  cisSecondName: Text,
  cisLastName: Text,
  cisTradingName: Text,
  cisUtr: Text,
  cisNiNumber: Text,
  cisCompanyNumber: Text,
  cisPartnerUtr: Text,
  verificationStatus: Schema.NullOr(VerificationStatus),
  verificationNumber: Text,
  taxTreatment: Schema.NullOr(TaxTreatment),
  verifiedAt: Schema.NullOr(Schema.DateFromSelf),
  verificationSource: Schema.NullOr(VerificationSource),
  verificationMessage: Text,
  defaultVatRate: Schema.NullOr(VatRate),
  paymentTermsDays: Schema.NullOr(Schema.Number),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type ContactRow = typeof ContactRow.Type

// Rows were validated on the way in and every member is present, so reading them back builds
// the classes without the constructor's checks (a hot path: lists).
const cisDetails = (row: ContactRow) =>
  row.cisType === null
    ? null
    : trustedInstance(CisDetails, {
        type: row.cisType,
        title: row.cisTitle,
        firstName: row.cisFirstName,
        secondName: row.cisSecondName,
        lastName: row.cisLastName,
        tradingName: row.cisTradingName,
        utr: row.cisUtr,
        niNumber: row.cisNiNumber,
        companyNumber: row.cisCompanyNumber,
        partnerUtr: row.cisPartnerUtr
      } as ConstructorParameters<typeof CisDetails>[0])

export const contactFromRow = (row: ContactRow): Contact =>
  trustedInstance(Contact, {
    id: row.id as ContactId,
    tenantId: row.tenantId as TenantId,
    code: row.code,
    name: row.name,
    email: row.email as Email | null,
    externalId: row.externalId,
    isCustomer: row.isCustomer,
    isSupplier: row.isSupplier,
    isCisSubcontractor: row.isCisSubcontractor,
    vatRegistered: row.vatRegistered,
    vatNumber: row.vatNumber,
    lastSdcDate: row.lastSdcDate,
    cisDetails: cisDetails(row),
    verification:
      row.verificationStatus === null
        ? null
        : trustedInstance(Verification, {
            status: row.verificationStatus,
            verificationNumber: row.verificationNumber,
            taxTreatment: row.taxTreatment,
            verifiedAt: row.verifiedAt,
            source: row.verificationSource,
            message: row.verificationMessage
          }),
    supplierSettings:
      row.defaultVatRate === null
        ? null
        : trustedInstance(SupplierSettings, {
            defaultVatRate: row.defaultVatRate,
            paymentTermsDays: row.paymentTermsDays
          }),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt
  })

/** The columns a contact's editable state is written to (camelCase; the client makes them snake_case). */
export const contactValues = (c: Contact) => ({
  name: c.name,
  email: c.email,
  externalId: c.externalId,
  isCustomer: c.isCustomer,
  isSupplier: c.isSupplier,
  isCisSubcontractor: c.isCisSubcontractor,
  vatRegistered: c.vatRegistered,
  vatNumber: c.vatNumber,
  lastSdcDate: c.lastSdcDate,
  cisType: c.cisDetails?.type ?? null,
  cisTitle: c.cisDetails?.title ?? null,
  cisFirstName: c.cisDetails?.firstName ?? null,
  cisSecondName: c.cisDetails?.secondName ?? null,
  cisLastName: c.cisDetails?.lastName ?? null,
  cisTradingName: c.cisDetails?.tradingName ?? null,
  cisUtr: c.cisDetails?.utr ?? null,
  cisNiNumber: c.cisDetails?.niNumber ?? null,
  cisCompanyNumber: c.cisDetails?.companyNumber ?? null,
  cisPartnerUtr: c.cisDetails?.partnerUtr ?? null,
  verificationStatus: c.verification?.status ?? null,
  verificationNumber: c.verification?.verificationNumber ?? null,
  taxTreatment: c.verification?.taxTreatment ?? null,
  verifiedAt: c.verification?.verifiedAt ?? null,
  verificationSource: c.verification?.source ?? null,
  verificationMessage: c.verification?.message ?? null,
  defaultVatRate: c.supplierSettings?.defaultVatRate ?? null,
  paymentTermsDays: c.supplierSettings?.paymentTermsDays ?? null,
  updatedAt: c.updatedAt
})
