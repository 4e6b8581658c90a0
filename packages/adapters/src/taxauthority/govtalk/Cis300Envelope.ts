import type { Cis300Return, Cis300Subcontractor } from "../cis300/Cis300Return.js"
import { nameXml, present } from "./NameXml.js"
import { irHeader, type IrSchema } from "./IrHeader.js"

export const CIS_RETURN_SCHEMA: IrSchema = {
  namespace: "http://www.govtalk.gov.uk/taxation/CISreturn",
  schemaVersion: "2005-v1.1",
  topElementName: "CISreturn"
}

/** Whole pounds, as HMRC takes payments and materials ("pounds only": the pence are dropped). */
const wholePounds = (pence: number) => `${Math.floor(pence / 100)}.00`
/** Pounds and pence, as HMRC takes the deduction. */
const poundsAndPence = (pence: number) => `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, "0")}`
const yesNo = (flag: boolean) => (flag ? "yes" : "no")

const subcontractorXml = (s: Cis300Subcontractor) =>
  present([
    ["Name", s.name && nameXml(s.name)],
    ["TradingName", s.name ? null : s.tradingName],
    ["WorksRef", s.worksRef.length <= 20 ? s.worksRef : null],
    ["UnmatchedRate", s.unmatchedRate ? "yes" : null],
    ["UTR", s.utr],
    ["CRN", s.crn],
    ["NINO", s.nino],
    ["VerificationNumber", s.verificationNumber],
    ["TotalPayments", wholePounds(s.totalPayments)],
    ["CostOfMaterials", wholePounds(s.costOfMaterials)],
    ["TotalDeducted", poundsAndPence(s.totalDeducted)]
  ])

/**
 * The CIS300 body: HMRC's `IRenvelope` of the CISreturn schema. A nil return says `NilReturn`
 * and lists nobody, and declares only that the information is correct (and, when the
 * contractor expects to pay no subcontractors for six months, `Inactivity`).
 */
export const cis300Envelope = (r: Cis300Return) => ({
  "@xmlns": CIS_RETURN_SCHEMA.namespace,
  IRheader: irHeader(r.scheme, r.periodEnd, CIS_RETURN_SCHEMA, r.sender),
  CISreturn: present([
    [
      "Contractor",
      present([
        ["UTR", r.contractorUtr],
        ["AOref", r.scheme.accountsOfficeReference]
      ])
    ],
    ["NilReturn", r.nilReturn ? "yes" : null],
    ["Subcontractor", r.subcontractors.length > 0 ? r.subcontractors.map(subcontractorXml) : null],
    [
      "Declarations",
      present([
        ["EmploymentStatus", r.nilReturn ? null : yesNo(r.declarations.employmentStatus)],
        ["Verification", r.nilReturn ? null : yesNo(r.declarations.verification)],
        ["InformationCorrect", yesNo(r.declarations.informationCorrect)],
        ["Inactivity", r.inactive ? "yes" : null]
      ])
    ]
  ])
})
