import { Effect } from "effect"
import { invalidState, validationFailed } from "../SandboxAnswer.js"
import type { Resource } from "../SandboxStore.js"
import { asObject, type SandboxResources, text } from "../SandboxResources.js"

import { type BankDetailsForm, checkBankDetails } from "../BankDetails.js"
import { billingRequestFulfilment } from "./BillingRequestsResource.js"

/** A billing request flow's page can be used for 7 days after it was created (its `expires_at`), as at GoCardless. */
const FLOW_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000

const isHttpUrl = (s: string | undefined) => {
  if (s === undefined) return false
  try {
    return ["http:", "https:"].includes(new URL(s).protocol)
  } catch {
    return false
  }
}

/** What the hosted page shows for a flow. */
export type FlowPage =
  | { readonly _tag: "Form"; readonly flowId: string; readonly description: string; readonly error: string | null }
  | { readonly _tag: "Gone"; readonly message: string }
  | { readonly _tag: "Done"; readonly message: string }
  | { readonly _tag: "Redirect"; readonly location: string }

/** Billing request flows: the hosted page where the customer gives their bank details. */
export const billingRequestFlows = (resources: SandboxResources) => {
  const { clock, create, record, store } = resources
  const { collect, fulfilled } = billingRequestFulfilment(resources)

  const createBillingRequestFlow = (body: unknown, key: string | undefined, origin: string) =>
    store.transaction(
      Effect.gen(function* () {
        const flow = asObject(asObject(body)["billing_request_flows"])
        const customer = asObject(flow["prefilled_customer"])
        const requestId = text(asObject(flow["links"])["billing_request"])
        const redirectUri = text(flow["redirect_uri"])
        const exitUri = text(flow["exit_uri"])
        const email = text(customer["email"])
        const problems = [
          ...(requestId === undefined ? [{ field: "links.billing_request", message: "is required" }] : []),
          ...(redirectUri !== undefined && !isHttpUrl(redirectUri)
            ? [{ field: "redirect_uri", message: "must be a valid URL" }]
            : []),
          ...(exitUri !== undefined && !isHttpUrl(exitUri)
            ? [{ field: "exit_uri", message: "must be a valid URL" }]
            : []),
          ...(email !== undefined && /^refuse/i.test(email)
            ? [{ field: "prefilled_customer.email", message: "has been refused by the sandbox's refusal rule" }]
            : [])
        ]
        if (problems.length > 0 || requestId === undefined) {
          return validationFailed(problems, "/billing_request_flows")
        }
        const request = yield* store.load("billing_requests", requestId)
        if (request === undefined) {
          return validationFailed(
            [{ field: "links.billing_request", message: "does not exist" }],
            "/billing_request_flows"
          )
        }
        if (!["pending", "ready_to_fulfil"].includes(String(request["status"]))) {
          return invalidState(
            "billing_request_not_pending",
            `A flow cannot be created for a billing request that is ${String(request["status"])}`
          )
        }
        return yield* create(
          "billing_request_flows",
          "BRF",
          key,
          (id, now) => ({
            id,
            created_at: now.toISOString(),
            authorisation_url: `${origin}/flow/${id}`,
            auto_fulfil: flow["auto_fulfil"] !== false,
            redirect_uri: redirectUri ?? null,
            exit_uri: exitUri ?? null,
            expires_at: new Date(now.getTime() + FLOW_LIFETIME_MS).toISOString(),
            language: text(flow["language"]) ?? "en",
            lock_bank_account: flow["lock_bank_account"] === true,
            lock_currency: flow["lock_currency"] === true,
            lock_customer_details: flow["lock_customer_details"] === true,
            customer_details_captured: false,
            prefilled_customer: customer,
            prefilled_bank_account: asObject(flow["prefilled_bank_account"]),
            session_token: text(flow["session_token"]) ?? null,
            show_redirect_buttons: flow["show_redirect_buttons"] === true,
            show_success_redirect_button: flow["show_success_redirect_button"] === true,
            skip_success_screen: flow["skip_success_screen"] === true,
            links: { billing_request: requestId }
          }),
          (resource) => [
            {
              resourceType: "billing_requests",
              resource: request,
              action: "flow_created",
              links: { billing_request_flow: resource.id }
            }
          ]
        )
      })
    )

  /** The hosted page of a flow: its form, or why there is none. */
  const flowPage = (id: string, error: string | null = null): Effect.Effect<FlowPage> =>
    store.transaction(
      Effect.gen(function* () {
        const flow = yield* store.load("billing_request_flows", id)
        if (flow === undefined) return { _tag: "Gone", message: "There is no such direct debit setup." } as const
        if (Date.parse(String(flow["expires_at"])) <= (yield* clock.now).getTime()) {
          return { _tag: "Gone", message: "This direct debit setup has expired. Go back and start again." } as const
        }
        const request = yield* store.load("billing_requests", String(asObject(flow["links"])["billing_request"]))
        if (request === undefined || request["status"] === "cancelled") {
          return { _tag: "Gone", message: "This direct debit setup was cancelled. Go back and start again." } as const
        }
        const description = text(asObject(request["mandate_request"])["description"]) ?? "Direct Debit"
        return { _tag: "Form", flowId: id, description, error } as const
      })
    )

  /** Where the customer goes once the page is done: the flow's redirect_uri exactly as given. */
  const doneLocation = (flow: Resource): FlowPage => {
    const uri = text(flow["redirect_uri"])
    return uri === undefined
      ? { _tag: "Done", message: "Your Direct Debit is set up. You can close this window." }
      : { _tag: "Redirect", location: uri }
  }

  /** The customer posted the hosted page: the success URL when the bank details are right, else the page with an error. */
  const submitFlowPage = (id: string, form: BankDetailsForm): Effect.Effect<FlowPage> =>
    store.transaction(
      Effect.gen(function* () {
        const page = yield* flowPage(id)
        const flow = yield* store.load("billing_request_flows", id)
        if (page._tag !== "Form" || flow === undefined) return page
        const request = yield* store.load("billing_requests", String(asObject(flow["links"])["billing_request"]))
        if (request === undefined) return page
        // A page posted twice: the setup is done, the customer goes on.
        if (request["status"] !== "pending") return doneLocation(flow)
        const checked = checkBankDetails(form)
        if ("error" in checked) return { ...page, error: checked.error }
        const collected = yield* collect(request, flow, checked)
        yield* store.save({ ...flow, customer_details_captured: true })
        if (flow["auto_fulfil"] === false) {
          yield* store.save(collected)
          yield* record([{ resourceType: "billing_requests", resource: collected, action: "bank_account_collected" }])
        } else {
          yield* fulfilled(collected)
        }
        return doneLocation(flow)
      })
    )

  return { createBillingRequestFlow, flowPage, submitFlowPage } as const
}
