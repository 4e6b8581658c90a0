import type { Schema } from "effect"
import type { PlainCisDetails } from "../../cis/CisDetailsFormat.js"
import type { SupplierSettings, TaxTreatment } from "../Contact.js"
import type { contactPlainFields } from "../ContactEventData.js"

/**
 * The subcontractor a row would become, as the create request that creates it: the contact's
 * plain members, every one present (null when the row has no value for it), its CIS identity and
 * its supplier settings.
 */
export type ImportedSubcontractor = Schema.Struct.Type<typeof contactPlainFields> & {
  readonly cisDetails: PlainCisDetails
  readonly supplierSettings: Schema.Struct.Type<typeof SupplierSettings.fields>
}

/** The verification a row records by hand, from its VerificationNumber, VerificationDate and TaxStatus. */
export interface ManualVerification {
  readonly verificationNumber: string
  /** YYYY-MM-DD. */
  readonly verificationDate: string
  readonly taxTreatment: TaxTreatment
}

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
