import type { CisDetails, CisType } from "@cisbook/core/cis/CisDetails"
import { hmrcPersonName, hmrcTradingName } from "@cisbook/core/cis/HmrcNames"
import type { PayeScheme } from "../cis300/Cis300Return.js"
import { nameXml, present } from "./NameXml.js"
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

/**
 * Whom HMRC is asked about, as HMRC's own `CisVerificationRequestXmlBuilder` writes it: a sole
 * trader by name (else trading name), UTR and NINO; a company or trust by trading name and UTR
 * (a company with its CRN); a partnership through its nominated partner — the partner's name and
 * own UTR (`partnerUtr`) or NINO as the subcontractor, the firm's name and UTR under
 * `Partnership`. Names in HMRC's forms.
 */
const subcontractorXml = (s: CisDetails) => {
  const individual = s.type === "SoleTrader" || s.type === "Partnership"
  const name = individual ? hmrcPersonName(s) : null
  const firm = s.type === "Partnership"
  const tradingName = firm ? null : (s.tradingName ?? [s.firstName, s.lastName].filter(Boolean).join(" "))
  return present([
    ["Action", "verify"],
    ["Type", types[s.type]],
    ["Name", name && nameXml(name)],
    ["TradingName", name || tradingName === null ? null : hmrcTradingName(tradingName)],
    ["UTR", firm ? s.partnerUtr : s.utr],
    ["CRN", s.type === "Company" || firm ? s.companyNumber : null],
    ["NINO", individual ? s.niNumber : null],
    [
      "Partnership",
      firm
        ? present([
            ["Name", s.tradingName && hmrcTradingName(s.tradingName)],
            ["UTR", s.utr]
          ])
        : null
    ]
  ])
}

/** The verification body: HMRC's `IRenvelope` of the CISrequest schema, action `verify`, for one subcontractor. */
export const cisVerifyEnvelope = (v: CisVerify) => ({
  "@xmlns": CIS_REQUEST_SCHEMA.namespace,
  IRheader: irHeader(v.scheme, v.periodEnd, CIS_REQUEST_SCHEMA, v.sender ?? "Company"),
  CISrequest: {
    Contractor: { UTR: v.contractorUtr, AOref: v.scheme.accountsOfficeReference },
    Subcontractor: subcontractorXml(v.subcontractor),
    Declaration: "yes"
  }
})
