import { XMLParser } from "fast-xml-parser"
import { base32, base64 } from "rfc4648"

/** One error of a GovTalk answer: of the envelope's `GovTalkErrors`, or of the body's `ErrorResponse`. */
export interface GovTalkError {
  readonly number: string
  readonly type: string
  readonly text: string
}

/** What HMRC's Transaction Engine answered, read from its GovTalk message. */
export type GovTalkAnswer =
  | {
      readonly _tag: "Acknowledgement"
      readonly correlationId: string
      readonly pollUrl: string | null
      readonly pollIntervalSeconds: number
    }
  | {
      readonly _tag: "Response"
      readonly correlationId: string
      readonly body: Record<string, unknown>
      /** The ResponseEndPoint the answer names, if any (a data request's answer names where to poll). */
      readonly pollUrl: string | null
    }
  | {
      readonly _tag: "Error"
      readonly correlationId: string
      readonly errors: ReadonlyArray<GovTalkError>
      readonly pollUrl: string | null
    }

/** HMRC's errors that a later try may get past (system failure, no answer in time, departmental error). */
export const RECOVERABLE_ERRORS: ReadonlySet<string> = new Set(["1000", "2005", "3000"])

/** The Government Gateway's authentication failure: the sender's credentials were refused. */
export const AUTHENTICATION_FAILURE = "1046"

/** The Transaction Engine no longer knows the correlation id (deleted, expired, or never its own). */
export const UNKNOWN_CORRELATION = "2000"

/** Whether a poll's errors say HMRC no longer knows the correlation id: the outcome is unknown. */
export const isUnknownCorrelation = (errors: ReadonlyArray<GovTalkError>) =>
  errors.some((error) => error.number === UNKNOWN_CORRELATION)

export const isRecoverable = (errors: ReadonlyArray<GovTalkError>) =>
  errors.some((error) => RECOVERABLE_ERRORS.has(error.number))

/**
 * What an error answer is, as HMRC's own CIS service classes it (its GovTalkErrorStatusClassifier):
 * the credentials refused (1046, not an answer to the document); recoverable (1000, 2005, 3000:
 * sent again later); or any other business or fatal error, which refuses the document.
 */
export type ErrorKind = "AuthenticationFailure" | "Recoverable" | "Refusal"

export const errorKind = (errors: ReadonlyArray<GovTalkError>): ErrorKind =>
  errors.some((error) => error.number === AUTHENTICATION_FAILURE)
    ? "AuthenticationFailure"
    : isRecoverable(errors)
      ? "Recoverable"
      : "Refusal"

/** Every error's text, as a rejection's reason. */
export const reasonOf = (errors: ReadonlyArray<GovTalkError>) =>
  errors.map((error) => `${error.text} (${error.number})`).join(" ")

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => name === "Error" || name === "StatusRecord" || name === "Subcontractor"
})

type Xml = Record<string, unknown>
const record = (value: unknown): Xml => (value !== null && typeof value === "object" ? (value as Xml) : {})
/** An element's text, whether it has attributes or not. */
export const text = (value: unknown): string =>
  typeof value === "string"
    ? value.trim()
    : typeof value === "number"
      ? String(value)
      : String(record(value)["#text"] ?? "").trim()

const errorsOf = (container: unknown): ReadonlyArray<GovTalkError> =>
  ((record(container)["Error"] as Array<unknown> | undefined) ?? []).map((error) => {
    const e = record(error)
    return { number: text(e["Number"]), type: text(e["Type"]), text: text(e["Text"]).replace(/\s+/g, " ") }
  })

/** The parsed message, or an Error when it is not a GovTalk message. */
export const parseGovTalk = (xml: string): Xml => {
  const message = record(parser.parse(xml))["GovTalkMessage"]
  if (message === undefined) throw new Error("The answer is not a GovTalk message")
  return record(message)
}

/** Reads HMRC's answer: an acknowledgement to poll later, a response, or an error with every error's text. */
export const govTalkAnswer = (xml: string): GovTalkAnswer => {
  const message = parseGovTalk(xml)
  const details = record(record(message["Header"])["MessageDetails"])
  const qualifier = text(details["Qualifier"])
  const correlationId = text(details["CorrelationID"])
  const body = record(message["Body"])
  if (qualifier === "acknowledgement") {
    const endPoint = details["ResponseEndPoint"]
    const interval = Number(record(endPoint)["@PollInterval"] ?? 0)
    return {
      _tag: "Acknowledgement",
      correlationId,
      pollUrl: text(endPoint) || null,
      pollIntervalSeconds: Number.isFinite(interval) && interval > 0 ? interval : 1
    }
  }
  const pollUrl = text(details["ResponseEndPoint"]) || null
  if (qualifier === "response") return { _tag: "Response", correlationId, body, pollUrl }
  if (qualifier === "error") {
    const errors = [...errorsOf(record(message["GovTalkDetails"])["GovTalkErrors"]), ...errorsOf(body["ErrorResponse"])]
    return { _tag: "Error", correlationId, errors, pollUrl }
  }
  throw new Error(`The answer's qualifier ${qualifier || "(none)"} is not one GovTalk answers with`)
}

/** The correlation ids a `list` answer's StatusRecords name (their Status words are not read: HMRC does not fix them). */
export const listedCorrelationIds = (body: Xml): ReadonlyArray<string> =>
  ((record(body["StatusReport"])["StatusRecord"] as Array<unknown> | undefined) ?? []).map((r) =>
    text(record(r)["CorrelationID"])
  )

/** A verification response's subcontractor: HMRC's CISresponse, inside SuccessResponse/ResponseData. */
export const cisResponseSubcontractors = (body: Xml): ReadonlyArray<Xml> =>
  (record(record(record(body["SuccessResponse"])["ResponseData"])["CISresponse"])["Subcontractor"] as
    Array<Xml> | undefined) ?? []

/**
 * HMRC's receipt text of a success answer: the IRmarkReceipt's message ("HMRC has received the
 * ... The associated IRmark was: ..."), else the answer's own message.
 */
export const receiptMessage = (body: Xml): string => {
  const success = record(body["SuccessResponse"])
  const receipt = text(record(success["IRmarkReceipt"])["Message"])
  return (receipt || text(success["Message"])).replace(/\s+/g, " ")
}

/**
 * The IRmark HMRC's receipt names, in base64 as the service writes IRmarks: the digest of its
 * signature (`IRmarkReceipt/Signature/SignedInfo/Reference/DigestValue`, base64), which HMRC's
 * own CIS service compares with what it sent; else the base32 IRmark its message names ("The
 * associated IRmark was: ..."); null when it names none.
 */
export const receiptIrmark = (body: Xml): string | null => {
  const receipt = record(record(body["SuccessResponse"])["IRmarkReceipt"])
  const reference = record(record(record(receipt["Signature"])["SignedInfo"])["Reference"])
  const digest = text(reference["DigestValue"])
  if (digest !== "") return digest
  const named = /The associated IRmark was: ([A-Z2-7]+=*)/.exec(text(receipt["Message"]))?.[1]
  if (named === undefined) return null
  try {
    return base64.stringify(base32.parse(named, { loose: true }))
  } catch {
    return null
  }
}
