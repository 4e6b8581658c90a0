import type { CisDetails, CisType } from "@cisbook/core/cis/CisDetails"
import type { PayeScheme } from "../cis300/Cis300Return.js"
import { present } from "./Cis300Envelope.js"
import { irHeader, type IrSchema, type IrSender } from "./IrHeader.js"

export const CIS_REQUEST_SCHEMA: IrSchema = {
  namespace: "http://www.govtalk.gov.uk/taxation/CISrequest",
  schemaVersion: "2005-v1.1",
  topElementName: "CISrequest"
}

/** A verification as HMRC's CISrequest holds it: who asks (the contractor) about whom. */
export interface CisVerify {
  readonly contractorUtr: string
  readonly scheme: PayeScheme
  readonly subcontractor: CisDetails
  /** The IRheader's PeriodEnd: the end of the tax month the request is made in. */
  readonly periodEnd: string
  /** The IRheader's `Sender`: `Agent` when an agent verifies for its client. */
  readonly sender?: IrSender
}

const types: Record<CisType, string> = {
  SoleTrader: "soletrader",
  Partnership: "partnership",
  Company: "company",
  Trust: "trust"
}

/** The end (the 5th) of the tax month a date falls in, YYYY-MM-05. */
export const taxMonthEnd = (at: Date): string => {
  const next = at.getUTCDate() > 5
  const month = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + (next ? 1 : 0), 5))
  return month.toISOString().slice(0, 10)
}

/** An individual's name, when there is a forename and a surname (HMRC's NameStructure needs both). */
const nameOf = (s: CisDetails) => {
  if (s.type !== "SoleTrader" || s.lastName === null || s.firstName === null) return null
  return present([
    ["Ttl", s.title],
    ["Fore", [s.firstName, s.secondName].filter((n): n is string => n !== null)],
    ["Sur", s.lastName]
  ])
}

/**
 * The verification body: HMRC's `IRenvelope` of the CISrequest schema, action `verify`, for one
 * subcontractor: an individual by name, anyone else by trading name; a partnership also as
 * `Partnership` (its name and UTR); the CRN of a company, the NINO of an individual.
 */
export const cisVerifyEnvelope = (v: CisVerify) => {
  const s = v.subcontractor
  const name = nameOf(s)
  return {
    "@xmlns": CIS_REQUEST_SCHEMA.namespace,
    IRheader: irHeader(v.scheme, v.periodEnd, CIS_REQUEST_SCHEMA, v.sender ?? "Company"),
    CISrequest: {
      Contractor: { UTR: v.contractorUtr, AOref: v.scheme.accountsOfficeReference },
      Subcontractor: present([
        ["Action", "verify"],
        ["Type", types[s.type]],
        ["Name", name],
        ["TradingName", name ? null : (s.tradingName ?? [s.firstName, s.lastName].filter(Boolean).join(" "))],
        ["UTR", s.utr],
        ["CRN", s.type === "Company" || s.type === "Partnership" ? s.companyNumber : null],
        ["NINO", s.type === "SoleTrader" || s.type === "Partnership" ? s.niNumber : null],
        [
          "Partnership",
          s.type === "Partnership"
            ? present([
                ["Name", s.tradingName],
                ["UTR", s.utr]
              ])
            : null
        ]
      ]),
      Declaration: "yes"
    }
  }
}
