import { Schema } from "effect"
import { PlainCisDetails } from "../../cis/CisDetailsFormat.js"
import { CalendarDate } from "../../CalendarDate.js"
import { TaxTreatment, VatRate } from "../Contact.js"

/**
 * The subcontractor a row would become, as the CreateContactRequest that creates it: every
 * member present, null when the row has no value for it.
 */
export const ImportedSubcontractor = Schema.Struct({
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  externalId: Schema.NullOr(Schema.String),
  isCustomer: Schema.Boolean,
  isSupplier: Schema.Boolean,
  isCisSubcontractor: Schema.Boolean,
  vatRegistered: Schema.Boolean,
  vatNumber: Schema.NullOr(Schema.String),
  lastSdcDate: Schema.NullOr(Schema.String),
  cisDetails: PlainCisDetails,
  supplierSettings: Schema.Struct({ defaultVatRate: VatRate, paymentTermsDays: Schema.NullOr(Schema.Int) })
}).annotations({
  identifier: "ImportedSubcontractor",
  description: "The CreateContactRequest the row becomes: a supplier and CIS subcontractor"
})
export type ImportedSubcontractor = typeof ImportedSubcontractor.Type

/** The verification a row records by hand, from its VerificationNumber, VerificationDate and TaxStatus. */
export const ManualVerification = Schema.Struct({
  verificationNumber: Schema.String.annotations({ examples: ["V1234567890"] }),
  verificationDate: CalendarDate,
  taxTreatment: TaxTreatment
}).annotations({ identifier: "ManualVerification" })
export type ManualVerification = typeof ManualVerification.Type

/** The analysis of one data row of an import file. */
export interface ContactImportRow {
  /** The 1-based number of the data row (blank lines are not counted). */
  readonly rowId: number
  /** What the row would become; null when it is skipped. */
  readonly subcontractor: ImportedSubcontractor | null
  readonly verification: ManualVerification | null
  /** Why the row cannot be imported, as a sentence; null when it can. */
  readonly skipReason: string | null
  /** The code of an existing contact of the tenant with the same UTR: a likely duplicate. */
  readonly duplicateOf: string | null
}
