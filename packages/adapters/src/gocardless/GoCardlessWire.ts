import { Schema } from "effect"

/** GoCardless's error body: `{ "error": { message, type, code, errors: [{ reason, message, links? }] } }`. */
export const ErrorBody = Schema.Struct({
  error: Schema.Struct({
    message: Schema.String,
    type: Schema.String,
    code: Schema.optional(Schema.Number),
    errors: Schema.optionalWith(
      Schema.Array(
        Schema.Struct({
          reason: Schema.optional(Schema.String),
          message: Schema.optional(Schema.String),
          field: Schema.optional(Schema.String),
          links: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
        })
      ),
      { default: () => [] }
    )
  })
})

/** A billing request: `pending` until the customer finished its flow, then `ready_to_fulfil`, `fulfilled`; or `cancelled`. */
export const BillingRequestBody = Schema.Struct({
  billing_requests: Schema.Struct({
    id: Schema.String,
    status: Schema.String,
    links: Schema.Struct({ mandate_request_mandate: Schema.optional(Schema.String) })
  })
})

/** A billing request flow: its hosted page, which the customer can complete until `expires_at` (7 days). */
export const BillingRequestFlowBody = Schema.Struct({
  billing_request_flows: Schema.Struct({
    id: Schema.String,
    authorisation_url: Schema.String,
    expires_at: Schema.Date
  })
})

export const MandateBody = Schema.Struct({
  mandates: Schema.Struct({
    id: Schema.String,
    status: Schema.String,
    next_possible_charge_date: Schema.NullOr(Schema.String),
    links: Schema.Struct({
      customer_bank_account: Schema.String,
      /** The mandate that replaced this one, once it was replaced (and so cancelled). */
      new_mandate: Schema.optional(Schema.String)
    })
  })
})

export const BankAccountBody = Schema.Struct({
  customer_bank_accounts: Schema.Struct({
    account_holder_name: Schema.String,
    account_number_ending: Schema.String,
    bank_name: Schema.NullOr(Schema.String)
  })
})

const Payment = Schema.Struct({
  id: Schema.String,
  status: Schema.String,
  amount: Schema.Union(Schema.Number, Schema.NumberFromString),
  charge_date: Schema.NullOr(Schema.String),
  links: Schema.Struct({ mandate: Schema.String })
})

export const PaymentBody = Schema.Struct({ payments: Payment })

/** A page of `GET /payments`: the payments and the cursor to the next (older) page, null on the last. */
export const PaymentsPageBody = Schema.Struct({
  payments: Schema.Array(Payment),
  meta: Schema.Struct({ cursors: Schema.Struct({ after: Schema.NullOr(Schema.String) }) })
})

/** The most items GoCardless answers in one page of a list. */
export const MAX_PAGE_LIMIT = 500

/** The API version this client speaks, sent on every request. */
export const GOCARDLESS_VERSION = "2015-07-06"
