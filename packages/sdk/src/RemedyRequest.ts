import type { Remedy } from "@cisbook/core/Errors"

/** The request that takes a failure's remedy: what a problem's detail adds for an API caller. */
export const remedyRequest = (remedy: Remedy): string => {
  switch (remedy._tag) {
    case "StartMandateSetup":
      return "POST /me/billing/mandate-setups"
    case "SetBillingEmail":
      return "PUT /me/billing/profile"
    case "CancelMandate":
      return "DELETE /me/billing/mandate"
    case "CompleteCisDetails":
      return `PUT /tenants/${encodeURIComponent(remedy.tenant)}/settings/cis-details`
  }
}

/** A detail written in the domain's words, with the request that takes its remedy when it has one. */
export const detailForHttp = (error: { readonly detail: string; readonly remedy?: Remedy | undefined }) =>
  error.remedy === undefined ? error.detail : `${error.detail} (${remedyRequest(error.remedy)})`
