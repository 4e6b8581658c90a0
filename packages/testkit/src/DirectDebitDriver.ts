import type { MandateSetupStarted } from "@cisbook/core/billing/mandates/DirectDebit"
import { Context, type Effect } from "effect"

/**
 * What a test does to a direct debit provider that the port cannot: the customer filling in the
 * provider's hosted page of a setup with good bank details, and the customer's bank refusing a
 * payment. Each implementation of the port under the contract brings its own (the fake's control,
 * the sandbox's form and scenario simulators, a recording's state).
 */
export class DirectDebitDriver extends Context.Tag("testkit/DirectDebitDriver")<
  DirectDebitDriver,
  {
    readonly finishPage: (setup: MandateSetupStarted) => Effect.Effect<void>
    /** The payment fails at the bank, and the provider will not retry it by itself. */
    readonly failPayment: (paymentId: string) => Effect.Effect<void>
  }
>() {}
