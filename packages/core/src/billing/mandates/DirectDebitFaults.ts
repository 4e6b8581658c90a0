import { Data } from "effect"

/**
 * The direct debit provider could not be reached, or kept failing (time-outs, 5xx, 429), after
 * the calls safe to repeat were repeated: a defect of the call, not the caller's mistake. A
 * request answers "unavailable, try again after `retryAfterSeconds`"; a worker tries the item
 * again later, for longer.
 */
export class DirectDebitUnavailable extends Data.TaggedError("DirectDebitUnavailable")<{
  readonly message: string
  readonly retryAfterSeconds: number
}> {}

/**
 * The provider refused a call for a fault of ours (GoCardless `invalid_api_usage`, a request it
 * cannot read) or of its own (`gocardless`): a defect, logged as an error, never the caller's mistake.
 */
export class DirectDebitFault extends Data.TaggedError("DirectDebitFault")<{
  readonly message: string
  readonly reason: string
}> {}
