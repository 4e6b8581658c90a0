import { Context, Data, type Effect } from "effect"

/** The customer details the provider's hosted page is prefilled with. */
export interface PrefilledCustomer {
  readonly givenName: string | null
  readonly familyName: string | null
  readonly companyName: string | null
  readonly email: string
  readonly addressLine1: string | null
  readonly addressLine2: string | null
  readonly addressLine3: string | null
  readonly postalCode: string | null
  readonly countryCode: string | null
}

export interface NewRedirectFlow {
  readonly sessionToken: string
  readonly successRedirectUrl: string
  readonly description: string
  readonly prefilledCustomer: PrefilledCustomer
}

export interface RedirectFlow {
  readonly id: string
  readonly redirectUrl: string
}

/** A mandate as the provider holds it; `status` is the provider's own word (pending_submission, active, ...). */
export interface ProviderMandate {
  readonly id: string
  readonly status: string
  readonly nextPossibleChargeDate: string | null
  readonly customerBankAccountId: string
}

export interface BankAccount {
  readonly accountHolderName: string
  readonly bankName: string | null
  readonly accountNumberEnding: string
}

export interface NewPayment {
  /** In pence. */
  readonly amount: number
  readonly currency: "GBP"
  readonly mandateId: string
  readonly description: string
  readonly chargeDate: string | null
  /** The invoice it collects, told to the provider (GoCardless `metadata`) so that its dashboard names it. */
  readonly invoice?: { readonly id: string; readonly number: string }
}

/** A payment as the provider holds it; `status` is the provider's own word (pending_submission, paid_out, ...). */
export interface ProviderPayment {
  readonly id: string
  readonly status: string
  readonly amount: number
  readonly chargeDate: string | null
  readonly mandateId: string
}

/** The provider said no: `message` is its own sentence, `reason` its machine word (e.g. redirect_flow_incomplete). */
export class DirectDebitRefused extends Data.TaggedError("DirectDebitRefused")<{
  readonly message: string
  readonly reason: string
}> {}

/**
 * A direct debit provider, in GoCardless's terms: redirect flows set a mandate up through the
 * provider's hosted page, payments collect on a mandate. Every create takes an idempotency key,
 * so that a retried request never makes a second resource. Transport failures are defects.
 */
export class DirectDebit extends Context.Tag("core/DirectDebit")<
  DirectDebit,
  {
    readonly createRedirectFlow: (
      flow: NewRedirectFlow,
      idempotencyKey: string
    ) => Effect.Effect<RedirectFlow, DirectDebitRefused>
    /** The flow's mandate id (MD...); an already completed flow answers its mandate again. */
    readonly completeRedirectFlow: (id: string, sessionToken: string) => Effect.Effect<string, DirectDebitRefused>
    readonly getMandate: (id: string) => Effect.Effect<ProviderMandate, DirectDebitRefused>
    readonly cancelMandate: (id: string) => Effect.Effect<ProviderMandate, DirectDebitRefused>
    readonly getBankAccount: (id: string) => Effect.Effect<BankAccount, DirectDebitRefused>
    readonly createPayment: (
      payment: NewPayment,
      idempotencyKey: string
    ) => Effect.Effect<ProviderPayment, DirectDebitRefused>
    readonly getPayment: (id: string) => Effect.Effect<ProviderPayment, DirectDebitRefused>
    /** Every payment on the mandate, newest first, however many pages the provider answers them in. */
    readonly listPayments: (mandateId: string) => Effect.Effect<ReadonlyArray<ProviderPayment>, DirectDebitRefused>
    readonly retryPayment: (id: string) => Effect.Effect<ProviderPayment, DirectDebitRefused>
  }
>() {}
