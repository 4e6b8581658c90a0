import type { ContactId } from "../Ids.js"

/** A page of invoices as a caller asks for it; an absent member takes its default. */
export interface InvoiceListRequest {
  readonly offset?: number | undefined
  readonly limit?: number | undefined
  /** A contact code, in any case: only that contact's invoices. */
  readonly contact?: string | undefined
}

/** A page of invoices as a store is asked for it: newest issue date first. */
export interface InvoiceListQuery {
  readonly offset: number
  readonly limit: number
  readonly contactId: ContactId | null
}
