import type { MonthlyReturn } from "../returns/MonthlyReturn.js"
import type { Acknowledgement } from "./Acknowledgement.js"

/** A monthly return (CIS300) as the tax authority receives it. */
export type ReturnSubmission = Pick<
  MonthlyReturn,
  "id" | "periodEnd" | "contractor" | "lines" | "nilReturn" | "inactive"
>

/** The tax authority's final answer to a return: accepted with its receipt text, or rejected with every error's text. */
export type ReturnAnswer =
  { readonly _tag: "Accepted"; readonly message: string } | { readonly _tag: "Rejected"; readonly reason: string }

/** A return the tax authority took: where it answers, and the IRmark of what was sent (the receipt keeps it). */
export interface SentReturn {
  readonly _tag: "Acknowledged"
  readonly acknowledgement: Acknowledgement
  readonly irmark: string
}

/**
 * What sending a return came to: the tax authority took it and will answer under its
 * acknowledgement, or it was refused before it was taken (the document broke one of the
 * authority's rules).
 */
export type ReturnSent = SentReturn | { readonly _tag: "Rejected"; readonly reason: string }

/**
 * A poll of a sent return: its answer; not yet, to be asked again after `retryAfterMs`; or to be
 * asked for under another acknowledgement from now on (the authority failed the earlier
 * submission with an error it asks to resubmit on, or no longer knew it and the return was found
 * held, or sent again, as its data request said), to be recorded and polled after `retryAfterMs`.
 */
export type ReturnPoll =
  | ReturnAnswer
  | { readonly _tag: "Pending"; readonly retryAfterMs: number }
  | { readonly _tag: "Resent"; readonly sent: SentReturn; readonly retryAfterMs: number }
