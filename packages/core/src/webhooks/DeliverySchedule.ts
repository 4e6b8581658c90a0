import { Duration } from "effect"
import type { DeliveryStatus } from "./WebhookDelivery.js"

/** Delays of the automatic retries after each failed automatic attempt; then no more. */
export const RETRY_DELAYS: ReadonlyArray<Duration.Duration> = [
  Duration.seconds(5),
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(2),
  Duration.hours(5),
  Duration.hours(10),
  Duration.hours(10)
]

/** Where a delivery stands between attempts. */
export interface DeliverySchedule {
  readonly status: DeliveryStatus
  /** Every attempt made, requested retries included. */
  readonly attempts: number
  /** Attempts made by the automatic schedule: its position. */
  readonly automaticAttempts: number
  /** The automatic schedule's next attempt; null once it is spent or the delivery succeeded. */
  readonly nextAttemptAt: Date | null
  /** When a retry was asked for, while it waits; it goes before the automatic schedule. */
  readonly retryRequestedAt: Date | null
}

/** When a delivery is due next: a requested retry at once, else the automatic schedule. */
export const dueAt = (schedule: DeliverySchedule): Date | null => schedule.retryRequestedAt ?? schedule.nextAttemptAt

/** The schedule of a delivery just queued: its first attempt is due at once. */
export const firstAttempt = (at: Date): DeliverySchedule => ({
  status: "Pending",
  attempts: 0,
  automaticAttempts: 0,
  nextAttemptAt: at,
  retryRequestedAt: null
})

export const isSuccessStatus = (status: number | null): boolean => status !== null && status >= 200 && status < 300

const after = (failedAt: Date, automaticAttempts: number): Date | null => {
  const delay = RETRY_DELAYS[automaticAttempts - 1]
  return delay === undefined ? null : new Date(failedAt.getTime() + Duration.toMillis(delay))
}

/**
 * The schedule after an attempt that ended at `at`. A success ends it. A failed automatic
 * attempt moves the automatic schedule on; a failed requested retry leaves it as it was.
 */
export const afterAttempt = (
  before: DeliverySchedule,
  outcome: { readonly at: Date; readonly responseStatus: number | null }
): DeliverySchedule => {
  const attempts = before.attempts + 1
  if (isSuccessStatus(outcome.responseStatus)) {
    return { ...before, status: "Succeeded", attempts, nextAttemptAt: null, retryRequestedAt: null }
  }
  if (before.retryRequestedAt !== null) return { ...before, status: "Failed", attempts, retryRequestedAt: null }
  const automaticAttempts = before.automaticAttempts + 1
  return {
    status: "Failed",
    attempts,
    automaticAttempts,
    nextAttemptAt: after(outcome.at, automaticAttempts),
    retryRequestedAt: null
  }
}
