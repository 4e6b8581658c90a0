import { sandboxId } from "./SandboxAnswer.js"
import type { Resource, SandboxEvent } from "./SandboxStore.js"

/** The most events GoCardless puts in one notification. */
export const EVENTS_PER_NOTIFICATION = 250

export type EventResourceType = "mandates" | "payments" | "billing_requests"

/** What GoCardless says in an event's `details`: who did it, why, and in words. */
interface Details {
  readonly origin: "api" | "gocardless" | "bank" | "customer" | "payer"
  readonly cause: string
  readonly description: string
  readonly scheme?: string
  readonly reason_code?: string
  readonly will_attempt_retry?: boolean
}

const bank = (cause: string, description: string, reason_code: string): Details => ({
  origin: "bank",
  cause,
  description,
  scheme: "bacs",
  reason_code
})

/**
 * A payment failed by a simulator, in the words GoCardless's own sandbox uses (the webhook its Go
 * client publishes, `testdata/webhook_request.json`), for a Bacs payment.
 */
const SIMULATED_FAILURE: Details = {
  origin: "bank",
  cause: "test_failure",
  scheme: "bacs",
  reason_code: "TEST",
  description: "GoCardless has marked this payment as failed in sandbox to enable testing of payment failure webhooks."
}

/** The details of each action as GoCardless's sandbox writes them. */
const details: Record<EventResourceType, Record<string, Details>> = {
  billing_requests: {
    created: { origin: "api", cause: "billing_request_created", description: "This billing request has been created." },
    flow_created: {
      origin: "api",
      cause: "billing_request_flow_created",
      description: "A billing request flow has been created against this billing request."
    },
    bank_account_collected: {
      origin: "payer",
      cause: "billing_request_bank_account_collected",
      description: "Bank account details have been collected for this billing request."
    },
    fulfilled: {
      origin: "payer",
      cause: "billing_request_fulfilled",
      description: "This billing request has been fulfilled, and the resources have been created."
    },
    cancelled: {
      origin: "api",
      cause: "billing_request_cancelled",
      description: "This billing request has been cancelled, none of the resources have been created."
    }
  },
  mandates: {
    created: { origin: "api", cause: "mandate_created", description: "Mandate created via the API." },
    submitted: {
      origin: "gocardless",
      cause: "mandate_submitted",
      description: "The mandate has been submitted to the banks."
    },
    active: {
      origin: "gocardless",
      cause: "mandate_activated",
      description: "The mandate has been successfully set up by the customer's bank."
    },
    failed: bank("invalid_bank_details", "The specified bank account does not exist or was closed.", "ADDACS-B"),
    expired: {
      origin: "gocardless",
      cause: "mandate_expired",
      description: "The mandate expired due to inactivity."
    },
    cancelled: { origin: "api", cause: "mandate_cancelled", description: "The mandate was cancelled at your request." },
    reinstated: {
      origin: "gocardless",
      cause: "mandate_reinstated",
      description: "The mandate has been reinstated and is active again."
    },
    replaced: {
      origin: "gocardless",
      cause: "mandate_replaced",
      description: "The mandate has been cancelled and replaced by a new mandate with a new creditor."
    }
  },
  payments: {
    created: { origin: "api", cause: "payment_created", description: "Payment created via the API." },
    submitted: {
      origin: "gocardless",
      cause: "payment_submitted",
      description: "Payment submitted to the banks. As a result, it can no longer be cancelled."
    },
    confirmed: {
      origin: "gocardless",
      cause: "payment_confirmed",
      description:
        "Enough time has passed since the payment was submitted for the banks to return an error, so this payment is now confirmed."
    },
    paid_out: {
      origin: "gocardless",
      cause: "payment_paid_out",
      description: "The payment has been paid out by GoCardless."
    },
    failed: { ...SIMULATED_FAILURE, will_attempt_retry: false },
    charged_back: bank(
      "authorisation_disputed",
      "The customer has disputed that the amount taken differs from the amount they were notified of.",
      "DDICA-1"
    ),
    cancelled: { origin: "api", cause: "payment_cancelled", description: "The payment was cancelled at your request." },
    late_failure_settled: {
      ...bank("insufficient_funds", "The payment failed after it was paid out; the amount was taken back.", "ARUDD-0"),
      will_attempt_retry: false
    },
    resubmission_requested: {
      origin: "api",
      cause: "payment_retried",
      description: "An attempt to collect this payment again has been requested."
    }
  }
}

/** A failure GoCardless will collect again by itself (its intelligent retries, Success+). */
export const WILL_ATTEMPT_RETRY: Details = { ...SIMULATED_FAILURE, will_attempt_retry: true }

/** The payment GoCardless put forward again after a failure it retries. */
export const RETRIED_BY_GOCARDLESS: Details = {
  origin: "gocardless",
  cause: "payment_retried",
  description: "The payment will be collected again, as GoCardless retries it."
}

/** A payment cancelled because its mandate was: GoCardless says so in the payment's event. */
export const CANCELLED_WITH_MANDATE: Details = {
  origin: "api",
  cause: "mandate_cancelled",
  description: "The mandate for this payment was cancelled at your request."
}

/** What happened to a resource: it moved to `action` (a status, or `created`, `resubmission_requested`, `flow_created`). */
export interface Change {
  readonly resourceType: EventResourceType
  readonly resource: Resource
  readonly action: string
  readonly details?: Details
  /** Links beside the resource's own (a replaced mandate's `new_mandate`, a fulfilled request's mandate). */
  readonly links?: Readonly<Record<string, string>>
}

const linkName: Record<EventResourceType, string> = {
  mandates: "mandate",
  payments: "payment",
  billing_requests: "billing_request"
}

/**
 * The events of changes made together, as GoCardless writes them. They are given times a
 * millisecond apart, so that a list shows them in the order they happened.
 */
export const eventsOf = (changes: ReadonlyArray<Change>, at: Date): ReadonlyArray<SandboxEvent> =>
  changes.map((change, i) => ({
    id: sandboxId("EV"),
    created_at: new Date(at.getTime() + i).toISOString(),
    resource_type: change.resourceType,
    action: change.action,
    links: { ...change.links, [linkName[change.resourceType]]: change.resource.id },
    details: change.details ??
      details[change.resourceType][change.action] ?? {
        origin: "api",
        cause: change.action,
        description: `The ${linkName[change.resourceType]} is now ${change.action}.`
      },
    metadata: {},
    resource_metadata: change.resource["metadata"] ?? {}
  }))

/** The notifications that tell of events, as GoCardless sends them: at most 250 events in each. */
export const notificationsOf = (events: ReadonlyArray<SandboxEvent>) => {
  const notifications: Array<{ id: string; body: string }> = []
  for (let i = 0; i < events.length; i += EVENTS_PER_NOTIFICATION) {
    const id = sandboxId("WB")
    notifications.push({
      id,
      body: JSON.stringify({ events: events.slice(i, i + EVENTS_PER_NOTIFICATION), meta: { webhook_id: id } })
    })
  }
  return notifications
}
