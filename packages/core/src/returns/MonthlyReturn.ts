import { Schema } from "effect"
import { ContactId, MonthlyReturnId, TenantId } from "../Ids.js"
import { CisDetails } from "../cis/CisDetails.js"
import { CisScheme } from "../cis/CisScheme.js"
import { TaxTreatment } from "../contacts/Contact.js"
import { ReturnDeclarations } from "./ReturnDeclarations.js"

/**
 * Submitted (waiting for the tax authority), Accepted, Rejected; or Held (see HeldFor): waiting,
 * sent again by itself once what holds it is mended, or by a person once they have checked.
 */
export const MonthlyReturnStatus = Schema.Literal("Submitted", "Accepted", "Rejected", "Held")
export type MonthlyReturnStatus = typeof MonthlyReturnStatus.Type

/**
 * Why a return is Held. `Credentials`: HMRC refused the tenant's Government Gateway credentials
 * (or it has none), so nothing was filed; it is sent again as soon as they are replaced or the CIS
 * scheme registration is corrected. `UnknownAnswer`: HMRC's answer to what was sent is unknown
 * (it no longer knew the correlation id, and its data request could not settle it); it is never
 * sent again by itself, only once a person has checked HMRC's online service (`returns release`).
 */
export const HeldFor = Schema.Literal("Credentials", "UnknownAnswer")
export type HeldFor = typeof HeldFor.Type

/** One subcontractor on a return, as the contact stood at submission. Money in pence. */
export class ReturnLine extends Schema.Class<ReturnLine>("ReturnLine")({
  contactId: ContactId,
  contactCode: Schema.String,
  name: Schema.String,
  utr: Schema.NullOr(Schema.String),
  verificationNumber: Schema.NullOr(Schema.String),
  taxTreatment: TaxTreatment,
  grossAmount: Schema.Int,
  materials: Schema.Int,
  deducted: Schema.Int,
  /**
   * The subcontractor's CIS identity as it stood, for the parts of the CIS300 beyond `name` and
   * `utr` (forenames and surname, trading name, NINO, CRN); null on a line stored without it.
   */
  cisDetails: Schema.optionalWith(Schema.NullOr(CisDetails), { default: () => null }),
  /** The ids of the purchase invoice payments the line was drafted from; none on a typed line. */
  payments: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] })
}) {}

/** The contractor's identity as it went on the return. */
export class ReturnContractor extends Schema.Class<ReturnContractor>("ReturnContractor")({
  name: Schema.String,
  utr: Schema.NullOr(Schema.String),
  /** The PAYE scheme the return was filed under; null on a return stored before schemes were registered. */
  scheme: Schema.optionalWith(Schema.NullOr(CisScheme), { default: () => null })
}) {}

/**
 * The proof of filing a contractor keeps: the correlation id HMRC gave the return, the IRmark of
 * what was sent, HMRC's acknowledgement text from its final answer, received at `receivedAt`, and
 * whether HMRC's receipt names the IRmark that was sent.
 */
export class HmrcReceipt extends Schema.Class<HmrcReceipt>("HmrcReceipt")({
  correlationId: Schema.String,
  irmark: Schema.String,
  message: Schema.String,
  receivedAt: Schema.DateFromSelf,
  irmarkVerified: Schema.Boolean
}) {}

/** A CIS300 monthly return of a contractor tenant. */
export class MonthlyReturn extends Schema.Class<MonthlyReturn>("MonthlyReturn")({
  id: MonthlyReturnId,
  tenantId: TenantId,
  /** The tax month, by its last day: YYYY-MM-05. */
  periodEnd: Schema.String,
  status: MonthlyReturnStatus,
  contractor: ReturnContractor,
  lines: Schema.Array(ReturnLine),
  /** A return saying that no subcontractors were paid in the month: it has no lines. */
  nilReturn: Schema.Boolean,
  /** With a nil return: the contractor expects to pay no subcontractors in the next six months. */
  inactive: Schema.Boolean,
  /** What the contractor declared on the return, by whom and when. */
  declarations: ReturnDeclarations,
  submittedAt: Schema.DateFromSelf,
  /**
   * When a Held return was last released (sent again): until then it had not reached the tax
   * authority, so it counts as filed from then on; null for a return never released.
   */
  releasedAt: Schema.optionalWith(Schema.NullOr(Schema.DateFromSelf), { default: () => null }),
  acceptedAt: Schema.NullOr(Schema.DateFromSelf),
  rejectionReason: Schema.NullOr(Schema.String),
  /** Why a Held return is held, in words; null otherwise. */
  heldReason: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  /** Why a Held return is held, as what releases it decides; null otherwise. */
  heldFor: Schema.optionalWith(Schema.NullOr(HeldFor), { default: () => null }),
  invoiced: Schema.Boolean,
  /** HMRC's receipt: null until the return is accepted (and on one accepted before receipts were kept). */
  hmrcReceipt: Schema.optionalWith(Schema.NullOr(HmrcReceipt), { default: () => null }),
  /**
   * Sent as a test (GovTalk's GatewayTest 1, GOVTALK_TEST): HMRC validates and answers but files
   * nothing, so the return is never billed, sends no statements and does not count as filed.
   */
  gatewayTest: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

export interface ReturnTotals {
  readonly grossAmount: number
  readonly materials: number
  readonly deducted: number
}

export const returnTotals = (lines: ReadonlyArray<ReturnLine>): ReturnTotals =>
  lines.reduce(
    (sum, line) => ({
      grossAmount: sum.grossAmount + line.grossAmount,
      materials: sum.materials + line.materials,
      deducted: sum.deducted + line.deducted
    }),
    { grossAmount: 0, materials: 0, deducted: 0 }
  )

/** The return as the tax authority's answer leaves it. */
export const answered = (
  r: MonthlyReturn,
  answer:
    | { readonly _tag: "Accepted"; readonly at: Date; readonly receipt: HmrcReceipt; readonly gatewayTest: boolean }
    | { readonly _tag: "Rejected"; readonly reason: string }
): MonthlyReturn =>
  new MonthlyReturn({
    ...r,
    gatewayTest: answer._tag === "Accepted" ? answer.gatewayTest : r.gatewayTest,
    status: answer._tag,
    acceptedAt: answer._tag === "Accepted" ? answer.at : null,
    rejectionReason: answer._tag === "Rejected" ? answer.reason : null,
    heldReason: null,
    heldFor: null,
    hmrcReceipt: answer._tag === "Accepted" ? answer.receipt : null
  })

/** The return held, with why. */
export const held = (r: MonthlyReturn, heldFor: HeldFor, reason: string): MonthlyReturn =>
  new MonthlyReturn({ ...r, status: "Held", heldFor, heldReason: reason })

/** A held return released at `at`: submitted again. */
export const resubmitted = (r: MonthlyReturn, at: Date): MonthlyReturn =>
  new MonthlyReturn({ ...r, status: "Submitted", heldFor: null, heldReason: null, releasedAt: at })

/** When the return was put to the tax authority for the last time: when it was filed, or released after being held. */
export const filedAt = (r: Pick<MonthlyReturn, "submittedAt" | "releasedAt">): Date => r.releasedAt ?? r.submittedAt
