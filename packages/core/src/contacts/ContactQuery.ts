import { Effect, Schema } from "effect"
import type { ValidationFailed } from "../Errors.js"
import { pageAsked } from "../Paging.js"
import type { ContactRole } from "./Contact.js"

export const ContactSortField = Schema.Literal("Name", "Code", "Email", "CreatedAt", "UpdatedAt")
export type ContactSortField = typeof ContactSortField.Type

/** `All` is every CIS subcontractor; contacts without the subcontractor role never match. */
export const VerificationFilter = Schema.Literal("All", "Verified", "NotVerified", "Error")
export type VerificationFilter = typeof VerificationFilter.Type

export const MIN_SEARCH_TERM_LENGTH = 3

/** A page of contacts as a caller asks for it; an absent member takes its default. */
export interface ContactListRequest {
  readonly offset?: number | undefined
  readonly limit?: number | undefined
  readonly sortBy?: ContactSortField | undefined
  readonly sortDesc?: boolean | undefined
  readonly search?: string | undefined
  readonly role?: ContactRole | undefined
  readonly verificationStatus?: VerificationFilter | undefined
}

/** A page of contacts as a store is asked for it. */
export interface ContactQuery {
  readonly offset: number
  readonly limit: number
  readonly sortBy: ContactSortField
  readonly sortDesc: boolean
  /** Lower case; a contact matches when every term is in its name, code, email or CIS identity. */
  readonly terms: ReadonlyArray<string>
  readonly role: ContactRole | null
  readonly verificationStatus: VerificationFilter | null
}

/** The words of a search, lower case, without those shorter than the minimum and without repeats. */
export const searchTerms = (search: string | undefined): ReadonlyArray<string> => [
  ...new Set(
    (search ?? "")
      .toLowerCase()
      .split(/\s+/)
      .filter((term) => Array.from(term).length >= MIN_SEARCH_TERM_LENGTH)
  )
]

export const contactQuery = (request: ContactListRequest): Effect.Effect<ContactQuery, ValidationFailed> =>
  pageAsked(request).pipe(
    Effect.map(({ limit, offset }) => ({
      offset,
      limit,
      sortBy: request.sortBy ?? "Name",
      sortDesc: request.sortDesc ?? false,
      terms: searchTerms(request.search),
      role: request.role ?? null,
      verificationStatus: request.verificationStatus ?? null
    }))
  )
