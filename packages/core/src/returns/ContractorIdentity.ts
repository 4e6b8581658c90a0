import { type CisDetails, missingForType } from "../cis/CisDetails.js"
import type { Tenant } from "../tenants/Tenant.js"
import { ReturnContractor } from "./MonthlyReturn.js"

/**
 * The contractor's identity for a return, from the tenant's own CIS details, or what they still
 * lack: a return carries the contractor's name and UTR.
 */
export const contractorIdentity = (
  tenant: Tenant,
  details: CisDetails | undefined
): ReturnContractor | ReadonlyArray<string> => {
  if (!details) return ["cisDetails"]
  const missing = [...missingForType(details)]
  if (!details.utr && !missing.some((member) => member.includes("utr"))) missing.push("utr")
  if (missing.length > 0) return missing
  const personal = [details.firstName, details.lastName].filter(Boolean).join(" ")
  return new ReturnContractor({ name: details.tradingName ?? (personal || tenant.name), utr: details.utr ?? null })
}
