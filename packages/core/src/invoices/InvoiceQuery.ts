import { Effect, Schema } from "effect"
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageLimit, PageOffset } from "../contacts/ContactQuery.js"
import type { ValidationFailed } from "../Errors.js"
import type { ContactId } from "../Ids.js"
import { decodeInput } from "../Validation.js"

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

const checkPaging = decodeInput(
  Schema.Struct({ offset: PageOffset, limit: PageLimit }).annotations({ parseOptions: { errors: "all" } })
)

/** The page asked for: limit at most the maximum; a limit below 1 or a negative offset is invalid. */
export const invoicePaging = (
  request: InvoiceListRequest
): Effect.Effect<{ readonly offset: number; readonly limit: number }, ValidationFailed> =>
  checkPaging({ offset: request.offset ?? 0, limit: request.limit ?? DEFAULT_PAGE_SIZE }).pipe(
    Effect.map(({ limit, offset }) => ({ offset, limit: Math.min(limit, MAX_PAGE_SIZE) }))
  )
