import type { StoredMandateStatus } from "./MandateStatus.js"

/** GoCardless's mandate statuses in the service's words (contract.md, Billing). */
export const mandateStatusOf = (providerStatus: string): StoredMandateStatus => {
  switch (providerStatus) {
    case "active":
      return "Active"
    case "cancelled":
      return "Cancelled"
    case "failed":
    case "blocked":
    case "suspended_by_payer":
      return "Failed"
    case "expired":
    case "consumed":
      return "Expired"
    default:
      return "InProgress"
  }
}
