import { Schema } from "effect"
import type { PlainCisDetails } from "../cis/CisDetailsFormat.js"
import type { VatRate } from "./Contact.js"

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

/** A supplier's settings as a caller gives them; the sdk's SupplierSettingsInput decodes to it. */
export interface SupplierSettingsInput {
  readonly defaultVatRate: VatRate
  readonly paymentTermsDays?: number | undefined
}

/**
 * A new contact, each member checked by its own rule (the sdk's CreateContactRequest decodes to
 * it); the rules between members are the use case's.
 */
export interface NewContact {
  readonly name: string
  readonly email?: string | undefined
  readonly externalId?: string | undefined
  readonly isCustomer?: boolean | undefined
  readonly isSupplier?: boolean | undefined
  readonly isCisSubcontractor?: boolean | undefined
  readonly vatRegistered?: boolean | undefined
  readonly vatNumber?: string | undefined
  readonly lastSdcDate?: string | undefined
  readonly cisDetails?: PlainCisDetails | undefined
  readonly supplierSettings?: SupplierSettingsInput | undefined
}

/**
 * Every editable member of a contact, roles included (the sdk's UpdateContactRequest decodes to
 * it). The code, external id, last SDC date and verification are not editable.
 */
export interface ContactReplacement {
  readonly name: string
  readonly email?: string | undefined
  readonly isCustomer: boolean
  readonly isSupplier: boolean
  readonly isCisSubcontractor: boolean
  readonly vatRegistered: boolean
  readonly vatNumber?: string | undefined
  readonly cisDetails?: PlainCisDetails | undefined
  readonly supplierSettings?: SupplierSettingsInput | undefined
}
