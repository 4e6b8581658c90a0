import type { NextStep } from "@cisbook/core/Errors"

/** The request that takes a failure's next step: what a problem's detail adds for an API caller. */
export const nextStepRequest = (step: NextStep): string => {
  switch (step._tag) {
    case "StartMandateSetup":
      return "POST /me/billing/mandate-setups"
    case "SetBillingEmail":
      return "PUT /me/billing/profile"
    case "CancelMandate":
      return "DELETE /me/billing/mandate"
    case "CompleteCisDetails":
      return `PUT /tenants/${encodeURIComponent(step.tenant)}/settings/cis-details`
  }
}

/** A detail written in the domain's words, with the request that takes its next step when it has one. */
export const detailForHttp = (error: { readonly detail: string; readonly nextStep?: NextStep | undefined }) =>
  error.nextStep === undefined ? error.detail : `${error.detail} (${nextStepRequest(error.nextStep)})`
