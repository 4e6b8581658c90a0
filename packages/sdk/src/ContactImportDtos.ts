import { CalendarDate } from "@cisbook/core/CalendarDate"
import { PlainCisDetails } from "@cisbook/core/cis/CisDetailsFormat"
import { SupplierSettings, TaxTreatment } from "@cisbook/core/contacts/Contact"
import { contactPlainFields } from "@cisbook/core/contacts/ContactEventData"
import { Schema } from "effect"

/** The subcontractor a row would become, as the CreateContactRequest that creates it: every member present, null when the row has no value for it. */
export const ImportedSubcontractor = Schema.Struct({
  ...contactPlainFields,
  cisDetails: PlainCisDetails,
  supplierSettings: Schema.Struct(SupplierSettings.fields)
}).annotations({
  identifier: "ImportedSubcontractor",
  description: "The CreateContactRequest the row becomes: a supplier and CIS subcontractor"
})

/** The verification a row records by hand, from its VerificationNumber, VerificationDate and TaxStatus. */
export const ManualVerification = Schema.Struct({
  verificationNumber: Schema.String.annotations({ examples: ["V1234567890"] }),
  verificationDate: CalendarDate,
  taxTreatment: TaxTreatment
}).annotations({ identifier: "ManualVerification" })

export const ContactImportRowDto = Schema.Struct({
  rowId: Schema.Int.annotations({ description: "The 1-based data row number (blank lines are not counted)" }),
  subcontractor: Schema.NullOr(ImportedSubcontractor).annotations({
    description: "The CreateContactRequest the row becomes; null when it is skipped"
  }),
  skipReason: Schema.NullOr(Schema.String).annotations({
    description: "Why the row cannot be imported, every problem in one sentence; null when it can"
  }),
  duplicateOf: Schema.NullOr(Schema.String).annotations({
    description:
      "The code of an existing contact of the tenant with the same UTR: a likely duplicate. The row can still be imported."
  }),
  verification: Schema.NullOr(ManualVerification).annotations({
    description:
      "The manual verification the row records (VerificationNumber, VerificationDate, TaxStatus); null when it has none"
  })
}).annotations({
  identifier: "ContactImportRowDto",
  examples: [
    {
      rowId: 1,
      subcontractor: {
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
          tradingName: "Smith Groundworks",
          utr: "2234567890",
          niNumber: "AB123456C",
          companyNumber: null,
          partnerUtr: null
        },
        supplierSettings: { defaultVatRate: "Standard", paymentTermsDays: null }
      },
      skipReason: null,
      duplicateOf: null,
      verification: { verificationNumber: "V1234567890", verificationDate: "2026-04-06", taxTreatment: "Net" }
    },
    {
      rowId: 2,
      subcontractor: null,
      skipReason: 'UTR "1234567890": must be a 10-digit UTR with a valid check digit, for example 2234567890.',
      duplicateOf: null,
      verification: null
    }
  ]
})
export type ContactImportRowDto = typeof ContactImportRowDto.Type

export const ContactImportRowResultDto = Schema.Struct({
  rowId: Schema.Int,
  status: Schema.Literal("Imported", "Failed"),
  contactCode: Schema.NullOr(Schema.String).annotations({ description: "The new contact's code; null when Failed" }),
  reason: Schema.NullOr(Schema.String).annotations({ description: "Why the row failed; null when Imported" })
}).annotations({ identifier: "ContactImportRowResultDto" })

export const ContactImportResultDto = Schema.Struct({
  imported: Schema.Int,
  failed: Schema.Int,
  rows: Schema.Array(ContactImportRowResultDto).annotations({ description: "One per selected row, by rowId" })
}).annotations({
  identifier: "ContactImportResultDto",
  examples: [
    {
      imported: 1,
      failed: 1,
      rows: [
        { rowId: 1, status: "Imported", contactCode: "JOHNSMIT", reason: null },
        {
          rowId: 2,
          status: "Failed",
          contactCode: null,
          reason: 'UTR "1234567890": must be a 10-digit UTR with a valid check digit, for example 2234567890.'
        }
      ]
    }
  ]
})
export type ContactImportResultDto = typeof ContactImportResultDto.Type

const selectionsExample = '[{"rowId":1},{"rowId":3}]'
const selectionsShape = `Must be a JSON array of the data rows to import, for example ${selectionsExample}`

const rowIdMessage = () => "A rowId is a data row number: a whole number from 1"

const Selection = Schema.Struct({
  rowId: Schema.Number.annotations({ message: rowIdMessage }).pipe(
    Schema.int({ message: rowIdMessage }),
    Schema.positive({ message: rowIdMessage })
  )
}).annotations({ message: () => 'Each selection is an object such as {"rowId":3}' })

/** The import form's `selections` part: a JSON array of `{ rowId }`, at least one. */
export const ImportSelections = Schema.String.annotations({ message: () => selectionsShape })
  .pipe(
    Schema.compose(Schema.parseJson().annotations({ message: () => selectionsShape })),
    Schema.compose(
      Schema.Array(Selection)
        .annotations({ message: () => selectionsShape })
        .pipe(Schema.minItems(1, { message: () => "Select at least one row to import" }))
    )
  )
  .annotations({
    identifier: "ImportSelections",
    jsonSchema: {
      type: "string",
      contentMediaType: "application/json",
      contentSchema: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          required: ["rowId"],
          properties: { rowId: { type: "integer", minimum: 1, description: "A data row number" } }
        }
      },
      description: `A JSON array of the data rows to import, for example ${selectionsExample}`,
      examples: [selectionsExample]
    }
  })
