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
