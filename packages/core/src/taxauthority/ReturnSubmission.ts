import type { MonthlyReturn } from "../returns/MonthlyReturn.js"

/** A monthly return (CIS300) as the tax authority receives it. */
export type ReturnSubmission = Pick<
  MonthlyReturn,
  "id" | "periodEnd" | "contractor" | "lines" | "nilReturn" | "inactive"
>

/** The tax authority's answer to a return. */
export type ReturnAnswer = { readonly _tag: "Accepted" } | { readonly _tag: "Rejected"; readonly reason: string }

/**
 * What sending a return came to: the tax authority took it and will answer under `correlationId`
 * (GovTalk's acknowledgement), or it was refused before it was taken (the document broke one of
 * the authority's rules).
 */
export type ReturnSent =
  | { readonly _tag: "Acknowledged"; readonly correlationId: string }
  | { readonly _tag: "Rejected"; readonly reason: string }

/**
 * A poll of a sent return: its answer; not yet, to be asked again after `retryAfterMs`; or sent
 * again under a new correlation id (the authority failed the earlier submission with an error it
 * asks to resubmit on), to be recorded and polled after `retryAfterMs`.
 */
export type ReturnPoll =
  | ReturnAnswer
  | { readonly _tag: "Pending"; readonly retryAfterMs: number }
  | { readonly _tag: "Resent"; readonly correlationId: string; readonly retryAfterMs: number }
