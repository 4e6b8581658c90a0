import { CalendarDate } from "@cisbook/core/CalendarDate"
import { CisDetailsFormat } from "@cisbook/core/cis/CisDetailsFormat"
import { ContactName, ContactRole, VatRate } from "@cisbook/core/contacts/Contact"
import { ExternalId, PaymentTermsDays, VatNumber } from "@cisbook/core/contacts/ContactInput"
import { EmailAddress } from "@cisbook/core/Email"
import { ContactSortField, MIN_SEARCH_TERM_LENGTH, VerificationFilter } from "@cisbook/core/contacts/ContactQuery"
import { ContactEventData as ContactDto } from "@cisbook/core/contacts/ContactEventData"
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageLimit, PageOffset } from "@cisbook/core/Paging"
import { Schema } from "effect"
import { optional, requestBody } from "./RequestBody.js"

// A contact as the API shows it is the `data` of its events, which core writes with the change.
export { ContactDto }

const Flag = optional(Schema.Boolean).annotations({ description: "Default false" })

export const SupplierSettingsInput = Schema.Struct({
  defaultVatRate: VatRate,
  paymentTermsDays: optional(PaymentTermsDays)
}).annotations({
  identifier: "SupplierSettingsInput",
  examples: [{ defaultVatRate: "Standard", paymentTermsDays: 30 }]
})

const NewContactFields = {
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

const ContactReplacementFields = {
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

// Annotating again drops the identifier, so it is given again.
export const CreateContactRequest = requestBody("CreateContactRequest", NewContactFields).annotations({
  identifier: "CreateContactRequest",
  description: "A new contact. Flags default to false; the role-specific parts may be omitted.",
  examples: [
    {
      name: "John Smith Groundworks",
      email: "john@smith-groundworks.example",
      isSupplier: true,
      isCisSubcontractor: true,
      vatRegistered: true,
      cisDetails: {
        type: "SoleTrader",
        title: null,
        firstName: "John",
        secondName: null,
        lastName: "Smith",
        tradingName: "John Smith Groundworks",
        utr: "2234567890",
        niNumber: null,
        companyNumber: null,
        partnerUtr: null
      }
    }
  ]
})

export const UpdateContactRequest = requestBody("UpdateContactRequest", ContactReplacementFields).annotations({
  identifier: "UpdateContactRequest",
  description:
    "Replaces every editable member, roles included. The code, externalId, lastSdcDate and verification are kept.",
  examples: [
    {
      name: "Acme Builders Ltd",
      email: "accounts@acme.example",
      isCustomer: true,
      isSupplier: false,
      isCisSubcontractor: false,
      vatRegistered: true,
      vatNumber: "GB123456789"
    }
  ]
})

export const ContactDtoPagedResult = Schema.Struct({
  items: Schema.Array(ContactDto),
  totalCount: Schema.Int.annotations({ description: "Every matching contact, on any page" }),
  offset: Schema.Int,
  limit: Schema.Int.annotations({ description: `The page size served: at most ${MAX_PAGE_SIZE}` })
}).annotations({ identifier: "ContactDtoPagedResult", description: "A page of contacts" })

const fromString = <A>(schema: Schema.Schema<A, number>) => Schema.compose(Schema.NumberFromString, schema)

export const ContactListParams = Schema.Struct({
  offset: Schema.optional(
    fromString(PageOffset).annotations({ description: "Contacts to skip; 0 or more", default: 0 })
  ),
  limit: Schema.optional(
    fromString(PageLimit).annotations({
      description: `Contacts per page, 1 or more; above ${MAX_PAGE_SIZE} is served as ${MAX_PAGE_SIZE}`,
      default: DEFAULT_PAGE_SIZE
    })
  ),
  sortBy: Schema.optional(
    ContactSortField.annotations({ description: "Ties are broken by code, in the same direction", default: "Name" })
  ),
  sortDesc: Schema.optional(Schema.BooleanFromString.annotations({ description: "Descending", default: false })),
  search: Schema.optional(
    Schema.String.annotations({
      description: `Words, each to be found (case-insensitively) in the name, code or email, or in a subcontractor's UTR, NI number, company number or trading name. Words shorter than ${MIN_SEARCH_TERM_LENGTH} characters are ignored.`,
      examples: ["smith"]
    })
  ),
  role: Schema.optional(ContactRole.annotations({ description: "Only contacts with this role" })),
  verificationStatus: Schema.optional(
    VerificationFilter.annotations({
      description: "Only CIS subcontractors with this verification status (All: every subcontractor)"
    })
  )
}).annotations({ parseOptions: { errors: "all" } })
