import type { InvoicePaymentStatus } from "../billinginvoices/InvoicePaymentStatus.js"
import type { StoredMandateStatus } from "../mandates/MandateStatus.js"

/** The status a `mandates` event's action sets (contract.md, Provider events); others change nothing. */
const mandateByAction: Readonly<Record<string, StoredMandateStatus>> = {
  created: "InProgress",
  submitted: "InProgress",
  customer_approval_granted: "InProgress",
  active: "Active",
  reinstated: "Active",
  failed: "Failed",
  blocked: "Failed",
  suspended_by_payer: "Failed",
  cancelled: "Cancelled",
  expired: "Expired",
  consumed: "Expired"
}

/** The status a `payments` event's action sets; others change nothing. */
const paymentByAction: Readonly<Record<string, InvoicePaymentStatus>> = {
  confirmed: "Paid",
  paid_out: "Paid",
  chargeback_cancelled: "Paid",
  submitted: "Pending",
  resubmission_requested: "Pending",
  failed: "Failed",
  charged_back: "Failed",
  late_failure_settled: "Failed",
  customer_approval_denied: "Failed",
  cancelled: "Cancelled"
}

export const mandateStatusOfAction = (action: string): StoredMandateStatus | undefined => mandateByAction[action]
/**
 * The status a `payments` event sets: a failure the provider says it will retry itself
 * (`details.will_attempt_retry`) leaves the payment Pending.
 */
export const paymentStatusOfAction = (
  action: string,
  details: Readonly<Record<string, unknown>>
): InvoicePaymentStatus | undefined =>
  action === "failed" && details["will_attempt_retry"] === true ? "Pending" : paymentByAction[action]

/**
 * How far along its life a mandate is: a mandate is set up, then activated, then ends (cancelled,
 * failed or expired). A later stage never leads back to an earlier one but through the provider.
 */
const mandateStage: Readonly<Record<StoredMandateStatus, number>> = {
  InProgress: 1,
  Active: 2,
  Cancelled: 3,
  Failed: 3,
  Expired: 3
}

/**
 * How far along its life an invoice's payment is: created, then settled (paid, failed or
 * cancelled). A settled payment can change again (a charge-back after payment, a retry after a
 * failure), but only the provider can say so.
 */
const paymentStage: Readonly<Record<InvoicePaymentStatus, number>> = {
  WaitingForMandate: 0,
  Pending: 1,
  Paid: 2,
  Failed: 2,
  Cancelled: 2
}

/**
 * Where an event that says `target` leaves a resource that is `current`: `forward` moves it on at
 * once, `same` changes nothing, and `doubt` (a step back or sideways, as an event that arrives
 * late would ask for) is settled by asking the provider where the resource stands now.
 */
export type Progress = "forward" | "same" | "doubt"

const progress = <S extends string>(stage: Readonly<Record<S, number>>, current: S, target: S): Progress =>
  current === target ? "same" : stage[target] > stage[current] ? "forward" : "doubt"

export const mandateProgress = (current: StoredMandateStatus, target: StoredMandateStatus): Progress =>
  progress(mandateStage, current, target)

export const paymentProgress = (current: InvoicePaymentStatus, target: InvoicePaymentStatus): Progress =>
  progress(paymentStage, current, target)

/** A mandate status the user is told of: it can no longer collect. */
export const mandateEnded = (status: StoredMandateStatus): boolean =>
  status === "Cancelled" || status === "Failed" || status === "Expired"
