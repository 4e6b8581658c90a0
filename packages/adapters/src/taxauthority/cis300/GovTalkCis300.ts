import { XMLBuilder } from "fast-xml-parser"
import type { Cis300Return, Cis300Subcontractor } from "./Cis300Return.js"

export const GOVTALK_ENVELOPE_NS = "http://www.govtalk.gov.uk/CM/envelope"
export const CIS_RETURN_NS = "http://www.govtalk.gov.uk/taxation/CISreturn"
/** GovTalk's message class of a CIS300 monthly return. */
export const CIS300_CLASS = "IR-CIS-CIS300MR"

/** Who sends the message: Government Gateway credentials, and the software that sends it. */
export interface GovTalkSender {
  readonly senderId: string
  readonly password: string
  /** GatewayTest 1: HMRC's test service, which validates but files nothing. */
  readonly gatewayTest: boolean
  readonly vendorId: string
  readonly product: string
  readonly version: string
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@", format: true, indentBy: "  " })

/** Whole pounds, as HMRC takes payments and materials ("pounds only": the pence are dropped). */
const wholePounds = (pence: number) => `${Math.floor(pence / 100)}.00`
/** Pounds and pence, as HMRC takes the deduction. */
const poundsAndPence = (pence: number) => `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, "0")}`
const yesNo = (flag: boolean) => (flag ? "yes" : "no")

/** Members in the schema's order; absent ones left out. */
const present = (members: ReadonlyArray<readonly [string, unknown]>) =>
  Object.fromEntries(members.filter(([, value]) => value !== null && value !== undefined))

const subcontractorXml = (s: Cis300Subcontractor) =>
  present([
    [
      "Name",
      s.name &&
        present([
          ["Ttl", s.name.title],
          ["Fore", s.name.forenames],
          ["Sur", s.name.surname]
        ])
    ],
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

const keys = (r: Cis300Return) => ({
  Key: [
    { "@Type": "TaxOfficeNumber", "#text": r.scheme.taxOfficeNumber },
    { "@Type": "TaxOfficeReference", "#text": r.scheme.taxOfficeReference }
  ]
})

/** The CIS300 body: HMRC's `IRenvelope` of the CISreturn schema. */
const irEnvelope = (r: Cis300Return) => ({
  "@xmlns": CIS_RETURN_NS,
  IRheader: { Keys: keys(r), PeriodEnd: r.periodEnd, DefaultCurrency: "GBP", Sender: r.sender },
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
        ["InformationCorrect", yesNo(r.declarations.informationCorrect)]
      ])
    ]
  ])
})

/**
 * The GovTalk message that submits a CIS300 to HMRC's Transaction Engine: the envelope (class
 * IR-CIS-CIS300MR, the return's own TransactionID, the sender's credentials, the employer
 * reference keys, the software's channel) around the `IRenvelope` body. The IRmark (a digest of
 * the canonical body) is optional and left out.
 */
export const govTalkCis300 = (r: Cis300Return, sender: GovTalkSender): string =>
  builder.build({
    "?xml": { "@version": "1.0", "@encoding": "UTF-8" },
    GovTalkMessage: {
      "@xmlns": GOVTALK_ENVELOPE_NS,
      EnvelopeVersion: "2.0",
      Header: {
        MessageDetails: {
          Class: CIS300_CLASS,
          Qualifier: "request",
          Function: "submit",
          TransactionID: r.transactionId,
          CorrelationID: "",
          Transformation: "XML",
          GatewayTest: sender.gatewayTest ? "1" : "0"
        },
        SenderDetails: {
          IDAuthentication: {
            SenderID: sender.senderId,
            Authentication: { Method: "clear", Role: "principal", Value: sender.password }
          }
        }
      },
      GovTalkDetails: {
        Keys: keys(r),
        TargetDetails: { Organisation: "IR" },
        ChannelRouting: { Channel: { URI: sender.vendorId, Product: sender.product, Version: sender.version } }
      },
      Body: { IRenvelope: irEnvelope(r) }
    }
  }) as string
