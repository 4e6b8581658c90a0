import { Schema } from "effect"

/** Where the collection of a billing invoice stands. */
export const InvoicePaymentStatus = Schema.Literal("WaitingForMandate", "Pending", "Paid", "Failed", "Cancelled")
export type InvoicePaymentStatus = typeof InvoicePaymentStatus.Type

const byProviderStatus: Readonly<Record<string, InvoicePaymentStatus>> = {
  pending_customer_approval: "Pending",
  pending_submission: "Pending",
  submitted: "Pending",
  confirmed: "Paid",
  paid_out: "Paid",
  failed: "Failed",
  charged_back: "Failed",
  customer_approval_denied: "Failed",
  cancelled: "Cancelled"
}

/** A provider payment's status (GoCardless's word) as the invoice shows it; a word not known yet counts as Pending. */
export const invoicePaymentStatusOf = (providerStatus: string): InvoicePaymentStatus =>
  byProviderStatus[providerStatus] ?? "Pending"

/** Statuses that can still change at the provider, so a listing asks it again. */
export const refreshedOnListing = (status: InvoicePaymentStatus): boolean => status === "Pending" || status === "Failed"
