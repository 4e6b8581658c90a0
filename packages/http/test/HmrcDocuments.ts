import { readFileSync } from "node:fs"
import { base32, base64 } from "rfc4648"

/** The answer documents kept in fixtures/hmrc (see the README there for where each comes from). */
export type HmrcDocument =
  | "authentication-failure"
  | "list-record"
  | "list-response"
  | "return-accepted"
  | "return-acknowledgement"
  | "return-business-error"
  | "return-delete-response"
  | "return-fatal-error"
  | "return-recoverable-1000"
  | "return-recoverable-2005"
  | "return-recoverable-3000"
  | "unknown-correlation"
  | "verification-acknowledgement"
  | "verification-delete-response"
  | "verification-departmental-error"
  | "verification-matched"

/** The values a document's `[name]` placeholders take (HMRC's stub writes its placeholders so). */
export type Placeholder =
  | "class"
  | "correlationId"
  | "digestValue"
  | "function"
  | "gatewayTimestamp"
  | "pollUrl"
  | "pollingUrlHost"
  | "records"
  | "senderId"
  | "status"
  | "transactionId"

const read = new Map<HmrcDocument, string>()
const text = (name: HmrcDocument) => {
  const known = read.get(name)
  if (known !== undefined) return known
  const document = readFileSync(new URL(`fixtures/hmrc/${name}.xml`, import.meta.url), "utf8")
  read.set(name, document)
  return document
}

const escape = (value: string) => value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

/**
 * The values HMRC's stub hard-codes in its accepted return's receipt: its correlation id, the
 * digest its signature names (base64) and the IRmark its message names (base32, as HMRC shows it).
 */
const STUB_RECEIPT = {
  correlationId: "77E82433B5764086B7523DDFDE4082BE",
  digest: "6kUvmjT9exR0Xfy9Y5MWeSt85Hw=",
  irmark: "TBPJFWEAYSD4GFVRMHY7KLWEBHB5BLA5"
} as const

/** The IRmark of the stub's receipt, in base64: what a receipt left as the stub wrote it names. */
export const STUB_RECEIPT_IRMARK = STUB_RECEIPT.digest

/**
 * One of HMRC's documents with its placeholders filled in (XML-escaped; `records` is XML), the
 * stub's own host replaced by `host`, and HMRC's own PollInterval replaced by
 * `pollIntervalSeconds` when given (a test does not wait HMRC's 5 s). `receipt` puts the correlation id and the IRmark sent (base64) in the accepted return's
 * receipt: its signature's digest, and its message in base32 as HMRC shows it.
 */
export const hmrcDocument = (
  name: HmrcDocument,
  values: Partial<Record<Placeholder, string>> = {},
  options: {
    readonly pollIntervalSeconds?: number
    readonly receipt?: { readonly correlationId: string; readonly irmark: string }
    /** Where the stub's own host (`[pollingUrlHost]`, or its `http://localhost:9712/`) is to point instead. */
    readonly host?: string
  } = {}
) => {
  let document = text(name).replace(
    /\[(class|correlationId|digestValue|function|gatewayTimestamp|pollUrl|pollingUrlHost|records|senderId|status|transactionId)\]/g,
    (_, key: Placeholder) =>
      key === "records"
        ? (values[key] ?? "")
        : escape(key === "pollingUrlHost" ? (options.host ?? values[key] ?? "") : (values[key] ?? ""))
  )
  if (options.host !== undefined) document = document.replaceAll("http://localhost:9712/", options.host)
  if (options.pollIntervalSeconds !== undefined)
    document = document.replace(/PollInterval="\d+"/g, `PollInterval="${options.pollIntervalSeconds}"`)
  const receipt = options.receipt
  if (receipt !== undefined)
    document = document
      .replace(STUB_RECEIPT.correlationId, receipt.correlationId)
      .replace(STUB_RECEIPT.digest, receipt.irmark)
      .replace(STUB_RECEIPT.irmark, base32.stringify(base64.parse(receipt.irmark)))
  return document
}
