import { Schema } from "effect"

/**
 * Where the caller's direct debit mandate stands. NotStarted: no setup ever; InProgress: a
 * redirect flow started, or a mandate the provider has not activated yet.
 */
export const MandateStatus = Schema.Literal("NotStarted", "InProgress", "Active", "Cancelled", "Failed", "Expired")
export type MandateStatus = typeof MandateStatus.Type

/** The statuses a stored mandate (or setup) can have. */
export const StoredMandateStatus = Schema.Literal("InProgress", "Active", "Cancelled", "Failed", "Expired")
export type StoredMandateStatus = typeof StoredMandateStatus.Type
