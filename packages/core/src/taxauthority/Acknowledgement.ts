/**
 * Where a message the tax authority took is answered: under its correlation id, at the endpoint
 * the authority named (GovTalk's `ResponseEndPoint`, never the submission URL). Recorded in the
 * database with the message, so that any process, after any restart, asks the same place.
 */
export interface SentMessage {
  readonly correlationId: string
  /** Where to poll for the answer and delete it; null on a message recorded before endpoints were kept. */
  readonly endpoint: string | null
}

/** The tax authority took a message: where it answers, and how long to wait before asking (its `PollInterval`). */
export interface Acknowledgement extends SentMessage {
  readonly endpoint: string
  readonly pollIntervalSeconds: number
}

/**
 * A poll that brought no final answer: not yet (HMRC acknowledged it again: ask again under that
 * acknowledgement, at the endpoint it names, no sooner than its interval); HMRC failed the
 * submission (a recoverable error as the answer to the poll: the message is to be submitted
 * afresh later); or HMRC no longer knows the correlation id (GovTalk's 2000), so the outcome is
 * unknown until its data request says what it holds.
 */
export type NoAnswerYet =
  | { readonly _tag: "Pending"; readonly acknowledgement: Acknowledgement }
  | { readonly _tag: "Failed"; readonly reason: string }
  | { readonly _tag: "Unknown"; readonly reason: string }

/**
 * What HMRC's data request (`list`) says of a message whose correlation id a poll found unknown,
 * read without its status words (HMRC's published material does not fix them): it records the
 * correlation id (whatever its status: HMRC holds the message, and the ResponseEndPoint the answer
 * names, if any), it does not, or HMRC refused the data request.
 */
export type Listed =
  | { readonly _tag: "Recorded"; readonly endpoint: string | null }
  | { readonly _tag: "NotRecorded" }
  | { readonly _tag: "Refused"; readonly reason: string }
