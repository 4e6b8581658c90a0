import { Schema } from "effect"
import { TaxTreatment } from "../contacts/Contact.js"
import { Pounds } from "../Money.js"
import { type MonthlyReturn, MonthlyReturnStatus, returnTotals } from "./MonthlyReturn.js"

const Day = Schema.String.annotations({ format: "date", examples: ["2026-06-05"] })

export const MonthlyReturnLineEventData = Schema.Struct({
  contact: Schema.String.annotations({ description: "The subcontractor's contact code" }),
  name: Schema.String.annotations({ description: "The subcontractor's name when the return was filed" }),
  utr: Schema.NullOr(Schema.String),
  verificationNumber: Schema.NullOr(Schema.String),
  taxTreatment: TaxTreatment,
  grossAmount: Pounds,
  materials: Pounds,
  deducted: Pounds,
  payments: Schema.Array(Schema.String).annotations({
    description:
      "The ids of the purchase invoice payments the line was drafted from (a return filed fromPayments); [] on a typed line"
  })
}).annotations({ identifier: "MonthlyReturnLineDto" })

export const HmrcReceiptEventData = Schema.Struct({
  correlationId: Schema.String.annotations({ description: "The correlation id HMRC gave the return" }),
  irmark: Schema.String.annotations({ description: "The IRmark of the return as it was sent" }),
  message: Schema.String.annotations({ description: "HMRC's acknowledgement text from its final response" }),
  receivedAt: Schema.Date.annotations({ description: "When HMRC's final response was received" }),
  irmarkVerified: Schema.Boolean.annotations({
    description:
      "Whether HMRC's receipt names the IRmark that was sent: false means HMRC's receipt is for another document than the one sent (the service logs a warning)"
  })
}).annotations({
  identifier: "HmrcReceipt",
  description: "HMRC's receipt of an accepted return: the proof of filing a contractor keeps"
})

export const DeclarationsEventData = Schema.Struct({
  employmentStatus: Schema.Boolean.annotations({
    description: "The contractor declared that none of the subcontractors on the return is its employee"
  }),
  subcontractorsVerified: Schema.Boolean.annotations({
    description:
      "The contractor declared that every subcontractor on the return was verified with HMRC, or was on one of its returns in this tax year or the two before"
  }),
  informationCorrect: Schema.Boolean.annotations({
    description: "The contractor declared the information on the return correct and complete"
  }),
  declaredBy: Schema.NullOr(Schema.String).annotations({
    description:
      "The id of the API key the return was filed with, else of the user who filed it; null on a return filed before the contractor made the declarations itself (they were declared on its behalf)"
  }),
  declaredAt: Schema.Date.annotations({ description: "When the declarations were made: when the return was filed" })
}).annotations({
  identifier: "DeclarationsDto",
  description: "The CIS300's declarations, as the contractor made them when it filed the return"
})

/**
 * The `data` of a return's events (monthly-return.accepted, .rejected), written with the change in
 * its transaction; the API answers the same shape (the sdk's MonthlyReturnDto). Money is pounds on
 * the wire and pence in code.
 */
export const MonthlyReturnEventData = Schema.Struct({
  id: Schema.String,
  periodEnd: Day.annotations({ description: "The tax month, by its last day (the 5th)" }),
  status: MonthlyReturnStatus,
  submittedAt: Schema.Date,
  acceptedAt: Schema.NullOr(Schema.Date),
  rejectionReason: Schema.NullOr(Schema.String),
  heldReason: Schema.NullOr(Schema.String).annotations({
    description:
      "Why a Held return waits; null otherwise. Either HMRC refused the tenant's Government Gateway credentials (or it has none): it is filed as soon as the tenant's HMRC credentials are replaced or its CIS scheme registration is corrected; or HMRC's answer is unknown: it is sent again only by `returns release` once a person has checked HMRC's online service."
  }),
  invoiced: Schema.Boolean.annotations({ description: "Whether a billing run has invoiced this accepted return" }),
  nilReturn: Schema.Boolean.annotations({
    description: "A return for a month with no payments to subcontractors: no lines"
  }),
  inactive: Schema.Boolean.annotations({
    description: "With a nil return: the contractor declared it expects to pay no subcontractors in the next six months"
  }),
  hmrcReceipt: Schema.NullOr(HmrcReceiptEventData).annotations({
    description:
      "HMRC's receipt (correlation id, IRmark sent, acknowledgement text, whether it names the IRmark sent); null until HMRC accepted the return"
  }),
  declarations: DeclarationsEventData,
  gatewayTest: Schema.Boolean.annotations({
    description:
      "Sent as a test (GOVTALK_TEST=true, GovTalk's GatewayTest): HMRC validates and answers but files nothing; such a return is never billed, sends no statements and does not count as filed"
  }),
  totals: Schema.Struct({ grossAmount: Pounds, materials: Pounds, deducted: Pounds }),
  lines: Schema.Array(MonthlyReturnLineEventData)
}).annotations({
  identifier: "MonthlyReturnDto",
  description:
    "A CIS300 monthly return: Submitted until the tax authority answers, then Accepted or Rejected (with the reason); Held (with heldReason) while HMRC refuses the tenant's credentials, or while HMRC's answer is unknown until a person has checked"
})
export type MonthlyReturnEventData = typeof MonthlyReturnEventData.Type

export const monthlyReturnEventData = (r: MonthlyReturn): MonthlyReturnEventData => ({
  id: r.id,
  periodEnd: r.periodEnd,
  status: r.status,
  submittedAt: r.submittedAt,
  acceptedAt: r.acceptedAt,
  rejectionReason: r.rejectionReason,
  heldReason: r.heldReason,
  invoiced: r.invoiced,
  nilReturn: r.nilReturn,
  inactive: r.inactive,
  hmrcReceipt:
    r.hmrcReceipt === null
      ? null
      : {
          correlationId: r.hmrcReceipt.correlationId,
          irmark: r.hmrcReceipt.irmark,
          message: r.hmrcReceipt.message,
          receivedAt: r.hmrcReceipt.receivedAt,
          irmarkVerified: r.hmrcReceipt.irmarkVerified
        },
  declarations: {
    employmentStatus: r.declarations.employmentStatus,
    subcontractorsVerified: r.declarations.subcontractorsVerified,
    informationCorrect: r.declarations.informationCorrect,
    declaredBy: r.declarations.declaredBy,
    declaredAt: r.declarations.declaredAt
  },
  gatewayTest: r.gatewayTest,
  totals: returnTotals(r.lines),
  lines: r.lines.map((line) => ({
    contact: line.contactCode,
    name: line.name,
    utr: line.utr,
    verificationNumber: line.verificationNumber,
    taxTreatment: line.taxTreatment,
    grossAmount: line.grossAmount,
    materials: line.materials,
    deducted: line.deducted,
    payments: line.payments
  }))
})

/** The JSON of a return, as webhook receivers get it. */
export const monthlyReturnEventJson = (r: MonthlyReturn) =>
  Schema.encodeSync(MonthlyReturnEventData)(monthlyReturnEventData(r))
