import { Effect, Schema } from "effect"
import type { ValidationFailed } from "./Errors.js"
import { decodeInput } from "./Validation.js"

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 50

export const PageOffset = Schema.Int.pipe(
  Schema.greaterThanOrEqualTo(0, { message: () => "Must be a whole number, 0 or more" })
)

/** At least 1; a larger limit than the maximum is served as the maximum. */
export const PageLimit = Schema.Int.pipe(
  Schema.greaterThanOrEqualTo(1, { message: () => "Must be a whole number, 1 or more" })
)

/** A page as a caller asks for it; an absent member takes its default. */
export interface PageRequest {
  readonly offset?: number | undefined
  readonly limit?: number | undefined
}

const checkPaging = decodeInput(
  Schema.Struct({ offset: PageOffset, limit: PageLimit }).annotations({ parseOptions: { errors: "all" } })
)

/** The page asked for: limit at most the maximum; a limit below 1 or a negative offset is invalid. */
export const pageAsked = (
  request: PageRequest
): Effect.Effect<{ readonly offset: number; readonly limit: number }, ValidationFailed> =>
  checkPaging({ offset: request.offset ?? 0, limit: request.limit ?? DEFAULT_PAGE_SIZE }).pipe(
    Effect.map(({ limit, offset }) => ({ offset, limit: Math.min(limit, MAX_PAGE_SIZE) }))
  )
