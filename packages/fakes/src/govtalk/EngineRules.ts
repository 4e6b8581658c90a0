import { type CisType, missingForType } from "@cisbook/core/cis/CisDetails"
import { isValidUtr } from "@cisbook/core/cis/Utr"
import type { TaxTreatment } from "@cisbook/core/contacts/Contact"
import type { EngineError } from "./EngineDocuments.js"

type Xml = Record<string, unknown>
const record = (value: unknown): Xml => (value !== null && typeof value === "object" ? (value as Xml) : {})
const list = (value: unknown): ReadonlyArray<unknown> =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]
const text = (value: unknown): string | null => {
  const s = typeof value === "string" || typeof value === "number" ? String(value) : record(value)["#text"]
  return s === undefined || s === null || String(s).trim() === "" ? null : String(s).trim()
}

/** The total deducted the sandbox always rejects, so that a test can see a rejection: £999.99. */
export const REJECTED_TOTAL_DEDUCTED_PENCE = 99_999

const department = (number: string, text: string, location?: string): EngineError => ({
  raisedBy: "Department",
  number,
  type: "business",
  text,
  ...(location === undefined ? {} : { location })
})

/** ChRIS's summary of a submission its department refused. */
export const BUSINESS_FAILURE: EngineError = {
  raisedBy: "ChRIS",
  number: "3001",
  type: "business",
  text: "Your submission failed due to business validation errors. Please see below for details."
}

const pence = (pounds: string | null) => Math.round(Number(pounds ?? "0") * 100)

/**
 * The sandbox's answer to a CIS300 (its `CISreturn`): refused naming the subcontractors whose UTR
 * is missing or invalid, refused when the total deducted is exactly £999.99, else accepted.
 */
export const returnErrors = (cisReturn: Xml): ReadonlyArray<EngineError> => {
  const subcontractors = list(cisReturn["Subcontractor"]).map(record)
  const badUtrs = subcontractors.filter((s) => {
    const utr = text(s["UTR"])
    return utr === null || !isValidUtr(utr)
  })
  if (badUtrs.length > 0) {
    const who = badUtrs.map((s) => {
      const name = record(s["Name"])
      const named =
        text(s["TradingName"]) ?? [...list(name["Fore"]).map(text), text(name["Sur"])].filter(Boolean).join(" ")
      const works = text(s["WorksRef"])
      return works === null ? named : `${named} (${works})`
    })
    return [department("3205", `No valid UTR for ${who.join(", ")}.`, "UTR")]
  }
  const deducted = subcontractors.reduce((sum, s) => sum + pence(text(s["TotalDeducted"])), 0)
  if (deducted === REJECTED_TOTAL_DEDUCTED_PENCE)
    return [department("3301", "The total deducted (£999.99) does not agree with the payments made.", "TotalDeducted")]
  return []
}

const types: Record<string, CisType> = {
  soletrader: "SoleTrader",
  partnership: "Partnership",
  company: "Company",
  trust: "Trust"
}

/** The UTR's last digit picks the treatment: 0–6 net, 7–8 gross, 9 unmatched; no UTR cannot be matched. */
const treatmentOf = (utr: string | null): TaxTreatment => {
  const last = utr === null ? null : Number(utr.at(-1))
  if (last === null) return "Unmatched"
  return last <= 6 ? "Net" : last <= 8 ? "Gross" : "Unmatched"
}

/** Ten digits that depend on the identity alone (FNV-1a), so the same subcontractor always gets the same number. */
const digitsOf = (parts: ReadonlyArray<string | null>) => {
  let hash = 0xcbf29ce484222325n
  for (const char of parts.map((p) => p ?? "").join("|"))
    hash = BigInt.asUintN(64, (hash ^ BigInt(char.codePointAt(0) ?? 0)) * 0x100000001b3n)
  return (hash % 10_000_000_000n).toString().padStart(10, "0")
}

const isError = (name: string | null) => name?.toLowerCase() === "error"

/** What the sandbox says of one subcontractor of a CISrequest: HMRC's CISresponse content, or its errors. */
export type VerifyAnswer =
  | { readonly _tag: "Errors"; readonly errors: ReadonlyArray<EngineError> }
  | {
      readonly _tag: "Verified"
      readonly subcontractor: Xml
      readonly matched: boolean
      readonly taxTreatment: TaxTreatment
      readonly verificationNumber: string
    }

/**
 * The sandbox's verification, from the identity alone: a last name or trading name `Error` is
 * refused; an incomplete identity is refused naming what is missing; any other is matched, the
 * UTR's last digit picking the treatment, with a verification number `V` and 10 digits (and the
 * letter `A` when unmatched, as HMRC writes it).
 */
export const verifyAnswer = (subcontractor: Xml): VerifyAnswer => {
  const name = record(subcontractor["Name"])
  const fore = list(name["Fore"]).map(text)
  const partnership = record(subcontractor["Partnership"])
  const type = types[text(subcontractor["Type"]) ?? ""] ?? "SoleTrader"
  // A partnership is asked about through its nominated partner: the partner's name, UTR or NINO
  // as the subcontractor, the firm's name and UTR under Partnership.
  const firm = type === "Partnership"
  const identity = {
    type,
    firstName: fore[0] ?? null,
    lastName: text(name["Sur"]),
    tradingName: firm ? text(partnership["Name"]) : text(subcontractor["TradingName"]),
    utr: firm ? text(partnership["UTR"]) : text(subcontractor["UTR"]),
    partnerUtr: firm ? text(subcontractor["UTR"]) : null,
    niNumber: text(subcontractor["NINO"]),
    companyNumber: text(subcontractor["CRN"])
  }
  if (isError(identity.lastName) || isError(identity.tradingName))
    return {
      _tag: "Errors",
      errors: [department("3100", "The details given do not match HMRC's records for this subcontractor.")]
    }
  const missing = missingForType(identity)
  if (missing.length > 0)
    return {
      _tag: "Errors",
      errors: [department("3101", `A ${identity.type} cannot be verified without: ${missing.join(", ")}.`)]
    }
  const taxTreatment = treatmentOf(identity.utr)
  const digits = digitsOf([
    identity.type,
    identity.utr,
    identity.partnerUtr,
    identity.niNumber,
    identity.companyNumber,
    identity.lastName,
    identity.tradingName
  ])
  return {
    _tag: "Verified",
    subcontractor,
    matched: taxTreatment !== "Unmatched",
    taxTreatment,
    verificationNumber: `V${digits}${taxTreatment === "Unmatched" ? "A" : ""}`
  }
}
