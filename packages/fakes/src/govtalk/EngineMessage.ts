/** A GovTalk message (or part of one) as the engine parses it. */
export type Xml = Record<string, unknown>

export const record = (value: unknown): Xml => (value !== null && typeof value === "object" ? (value as Xml) : {})

/** An element's text, trimmed; "" when it has none. */
export const text = (value: unknown): string => {
  const s = typeof value === "string" || typeof value === "number" ? String(value) : record(value)["#text"]
  return s === undefined || s === null ? "" : String(s).trim()
}

/** What the engine's answer to a message is built on: the message's class, function and ids. */
export interface AnswerBase {
  readonly class: string
  readonly function: string
  readonly correlationId: string
  readonly transactionId: string
  readonly at: Date
}
