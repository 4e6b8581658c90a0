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

/** A mandate setup to start: the provider's hosted page, prefilled, sending the customer back to `successRedirectUrl`. */
export interface NewMandateSetup {
  /** The service's user the mandate is for (the provider keeps it in the setup's metadata). */
  readonly userId: string
  readonly successRedirectUrl: string
  readonly prefilledCustomer: PrefilledCustomer
}

/**
 * A started setup (a GoCardless billing request, BRQ...), its hosted page (its flow's
 * authorisation URL) and when that page can no longer be completed (the flow's `expires_at`).
 */
export interface MandateSetupStarted {
  readonly id: string
  readonly redirectUrl: string
  readonly expiresAt: Date
}

/** Why a setup cannot be completed: the customer has not finished the provider's page yet. */
export const SETUP_NOT_FINISHED = "setup_not_finished"
/** Why a setup cannot be completed: it was cancelled (or it expired) with the provider. */
export const SETUP_CANCELLED = "setup_cancelled"
/** Why a mandate cannot be cancelled: it is no longer live (already cancelled, failed or expired). */
export const CANCELLATION_FAILED = "cancellation_failed"
/** Why a payment cannot be retried: it has not failed, its mandate can no longer collect, or it was retried 3 times. */
export const RETRY_FAILED = "retry_failed"

/** A mandate as the provider holds it; `status` is the provider's own word (pending_submission, active, ...). */
export interface ProviderMandate {
  readonly id: string
  readonly status: string
  readonly nextPossibleChargeDate: string | null
  readonly customerBankAccountId: string
  /** The mandate that replaced this one (GoCardless `links.new_mandate`), null unless it was replaced. */
  readonly newMandateId: string | null
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
  readonly invoice: { readonly id: string; readonly number: string }
}

/** A payment as the provider holds it; `status` is the provider's own word (pending_submission, paid_out, ...). */
export interface ProviderPayment {
  readonly id: string
  readonly status: string
  readonly amount: number
  readonly chargeDate: string | null
  readonly mandateId: string
}

/** The provider said no: `message` is its own sentence, `reason` its machine word (e.g. cancellation_failed). */
export class DirectDebitRefused extends Data.TaggedError("DirectDebitRefused")<{
  readonly message: string
  readonly reason: string
}> {}

/**
 * A direct debit provider, in GoCardless's terms: a mandate setup (a billing request and its
 * flow) sets a mandate up through the provider's hosted page, payments collect on a mandate.
 * Every create takes an idempotency key, so that a retried request never makes a second resource.
 * An action (fulfil, cancel, retry) is done at most once: one whose outcome is unknown is answered
 * by where the resource stands. Transport failures are defects.
 */
export class DirectDebit extends Context.Tag("core/DirectDebit")<
  DirectDebit,
  {
    readonly startMandateSetup: (
      setup: NewMandateSetup,
      idempotencyKey: string
    ) => Effect.Effect<MandateSetupStarted, DirectDebitRefused>
    /**
     * The setup's mandate id (MD...), once the customer finished the hosted page; a setup ready to
     * be fulfilled is fulfilled first, a completed one answers its mandate again. Refused with
     * SETUP_NOT_FINISHED or SETUP_CANCELLED.
     */
    readonly completeMandateSetup: (id: string) => Effect.Effect<string, DirectDebitRefused>
    /** Cancels a setup the customer never finished, so that its page can no longer make a mandate. */
    readonly cancelMandateSetup: (id: string) => Effect.Effect<void, DirectDebitRefused>
    readonly getMandate: (id: string) => Effect.Effect<ProviderMandate, DirectDebitRefused>
    /** Refused with CANCELLATION_FAILED when the mandate is no longer live (already cancelled, say). */
    readonly cancelMandate: (id: string) => Effect.Effect<ProviderMandate, DirectDebitRefused>
    readonly getBankAccount: (id: string) => Effect.Effect<BankAccount, DirectDebitRefused>
    readonly createPayment: (
      payment: NewPayment,
      idempotencyKey: string
    ) => Effect.Effect<ProviderPayment, DirectDebitRefused>
    readonly getPayment: (id: string) => Effect.Effect<ProviderPayment, DirectDebitRefused>
    /** Every payment on the mandate, newest first, however many pages the provider answers them in. */
    readonly listPayments: (mandateId: string) => Effect.Effect<ReadonlyArray<ProviderPayment>, DirectDebitRefused>
    /**
     * Collects a failed payment again (at most 3 times, while its mandate can collect); answers the
     * payment. A payment already being collected again (a retry whose answer was lost) is answered
     * as it is; any other refused with RETRY_FAILED.
     */
    readonly retryPayment: (id: string) => Effect.Effect<ProviderPayment, DirectDebitRefused>
  }
>() {}
