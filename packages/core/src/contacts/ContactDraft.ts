import { Schema } from "effect"
import { blankAsNull } from "../BlankAsNull.js"
import { CisDetails, emptySoleTrader } from "../cis/CisDetails.js"
import type { PlainCisDetails } from "../cis/CisDetailsFormat.js"
import { validCisDetails } from "../cis/ValidCisDetails.js"
import { Email } from "../Email.js"
import type { NewEvent } from "../events/Event.js"
import { EventJson } from "../events/EventJson.js"
import type { ContactId, TenantId } from "../Ids.js"
import { trustedInstance } from "../TrustedInstance.js"
import {
  Contact,
  defaultSupplierSettings,
  notVerified,
  SupplierSettings,
  type VatRate,
  type Verification
} from "./Contact.js"
import { contactEventJson } from "./ContactEventData.js"

/**
 * The members of a new contact, checked already: a create request, or a row of an import file.
 * Omitted and null mean the same.
 */
export interface ContactDraftInput {
  readonly name: string
  readonly email?: string | null | undefined
  readonly externalId?: string | null | undefined
  readonly isCustomer?: boolean | null | undefined
  readonly isSupplier?: boolean | null | undefined
  readonly isCisSubcontractor?: boolean | null | undefined
  readonly vatRegistered?: boolean | null | undefined
  readonly vatNumber?: string | null | undefined
  readonly lastSdcDate?: string | null | undefined
  readonly cisDetails?: PlainCisDetails | null | undefined
  readonly supplierSettings?: SupplierSettingsValues | null | undefined
}

export interface SupplierSettingsValues {
  readonly defaultVatRate: VatRate
  readonly paymentTermsDays?: number | null | undefined
}

/** Checked details as the class; decoded with the schema (which throws) only if they do not pass. */
export const toCisDetails = (plain: PlainCisDetails): CisDetails => {
  const fields = validCisDetails(plain)
  return fields === undefined ? Schema.decodeUnknownSync(CisDetails)(plain) : trustedInstance(CisDetails, fields)
}

/** Settings checked on their way in (a request's body or an import row), not validated again. */
export const toSupplierSettings = (input: SupplierSettingsValues) =>
  trustedInstance(SupplierSettings, {
    defaultVatRate: input.defaultVatRate,
    paymentTermsDays: input.paymentTermsDays ?? null
  })

export const toEmail = (value: string | null | undefined) => (value ? Email.make(value) : null)

/**
 * A new contact as the create rules make it: flags default to false, a CIS subcontractor
 * without CIS details gets an empty SoleTrader identity and starts NotVerified (unless it comes
 * with a verification), a supplier without settings gets the VAT rate its VAT-registered flag
 * implies. Its code is blank until one is issued.
 */
export const draftContact = (
  input: ContactDraftInput,
  fields: {
    readonly id: ContactId
    readonly tenantId: TenantId
    readonly now: Date
    readonly verification?: Verification
  }
): Contact => {
  const isSupplier = input.isSupplier ?? false
  const isCisSubcontractor = input.isCisSubcontractor ?? false
  const vatRegistered = input.vatRegistered ?? false
  // The input was checked on its way in and the CIS identity is checked again below, so the
  // class need not validate every member once more, nor look for defaults to fill in: every
  // member is given (a hot path: an import makes 10,000).
  return trustedInstance(Contact, {
    id: fields.id,
    tenantId: fields.tenantId,
    code: "",
    name: input.name,
    email: toEmail(input.email),
    externalId: blankAsNull(input.externalId),
    isCustomer: input.isCustomer ?? false,
    isSupplier,
    isCisSubcontractor,
    vatRegistered,
    vatNumber: blankAsNull(input.vatNumber),
    lastSdcDate: input.lastSdcDate ?? null,
    cisDetails: !isCisSubcontractor ? null : input.cisDetails ? toCisDetails(input.cisDetails) : emptySoleTrader,
    verification: isCisSubcontractor ? (fields.verification ?? notVerified) : null,
    supplierSettings: !isSupplier
      ? null
      : input.supplierSettings
        ? toSupplierSettings(input.supplierSettings)
        : defaultSupplierSettings(vatRegistered),
    createdAt: fields.now,
    updatedAt: fields.now
  })
}

export const contactEvent = (type: NewEvent["type"], contact: Contact): NewEvent => ({
  type,
  data: contactEventJson(contact)
})

/** What creating a contact records: contact.created, and subcontractor.created for a CIS subcontractor. */
export const creationEvents = (
  contact: Contact,
  data: unknown = contactEventJson(contact)
): ReadonlyArray<NewEvent> => [
  { type: "contact.created", data },
  ...(contact.isCisSubcontractor ? [{ type: "subcontractor.created" as const, data }] : [])
]

/** The start of a contact's event JSON when its code is blank; the code is the JSON's first member. */
const BLANK_CODE_START = '{"code":""'

/**
 * The JSON text of a draft's event data, for whichever code it is then issued: the draft is turned
 * into JSON once, before its code is known (so before the transaction that issues it), and the
 * code put in front of the rest.
 */
export const creationEventJson = (draft: Contact): ((code: string) => EventJson) => {
  // A draft's code is blank (draftContact): its JSON starts with the blank code.
  const text = JSON.stringify(contactEventJson(draft))
  if (!text.startsWith(BLANK_CODE_START)) throw new Error("A draft's event JSON does not start with its blank code")
  const rest = text.slice(BLANK_CODE_START.length)
  return (code) => new EventJson(`{"code":${JSON.stringify(code)}${rest}`)
}
