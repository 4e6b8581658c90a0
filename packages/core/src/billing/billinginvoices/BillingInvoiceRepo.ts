import { Context, type Effect, type Option } from "effect"
import type { BillingInvoice, BillingInvoiceWithLines } from "./BillingInvoice.js"
import type { InvoicePaymentStatus } from "./InvoicePaymentStatus.js"
import type { BillingUsage } from "./BillingUsage.js"
import type { ClaimedUsage, InvoiceDraft } from "./InvoiceDraft.js"
import type { BillingInvoiceId, UserId } from "../../Ids.js"

/** How an invoice's collection stands after a step of it. */
export interface Collection {
  readonly paymentStatus: InvoicePaymentStatus
  readonly paymentReference: string | null
  readonly mandateReference: string | null
}

/**
 * The service's invoices to its users, and the accepted returns they bill. A return is claimed
 * for one invoice only, however many runs race: the claim is one conditional write.
 */
export class BillingInvoiceRepo extends Context.Tag("core/BillingInvoiceRepo")<
  BillingInvoiceRepo,
  {
    /** The accepted, not yet invoiced returns of every tenant the user owns, oldest tax month first. */
    readonly usage: (userId: UserId) => Effect.Effect<ReadonlyArray<BillingUsage>>
    /** Every user who owns a tenant with an accepted, not yet invoiced return. */
    readonly usersWithUsage: Effect.Effect<ReadonlyArray<UserId>>
    /**
     * Marks every accepted, not yet invoiced return of the tenants the user owns as invoiced by
     * `invoiceId`, and answers them; a return another run claimed first is not answered. Call it
     * in the transaction that inserts the invoice.
     */
    readonly claimUsage: (userId: UserId, invoiceId: BillingInvoiceId) => Effect.Effect<ReadonlyArray<ClaimedUsage>>
    /** Stores an unfinished invoice, numbered next in the service-wide sequence, WaitingForMandate. */
    readonly insert: (draft: InvoiceDraft, at: Date) => Effect.Effect<BillingInvoice>
    /**
     * Leases up to `limit` unfinished invoices (of every user) until `leaseUntil`, lowest number
     * first; each to one caller however many claim at once. A lease that runs out makes it due again.
     */
    readonly claimUnfinished: (
      now: Date,
      leaseUntil: Date,
      limit: number
    ) => Effect.Effect<ReadonlyArray<BillingInvoiceWithLines>>
    readonly storePdf: (userId: UserId, id: BillingInvoiceId, pdf: Uint8Array) => Effect.Effect<void>
    /** Records how the collection stands; `finish` also marks the invoice finished and ends its lease. */
    readonly recordCollection: (
      userId: UserId,
      id: BillingInvoiceId,
      collection: Collection,
      finish: boolean
    ) => Effect.Effect<void>
    /**
     * Records a newly created payment only while the invoice still waits (WaitingForMandate or
     * Cancelled); false when something else put it forward meanwhile.
     */
    readonly recordPutForward: (userId: UserId, id: BillingInvoiceId, collection: Collection) => Effect.Effect<boolean>
    /** The user's invoices, latest issue date first, then latest number. */
    readonly list: (userId: UserId) => Effect.Effect<ReadonlyArray<BillingInvoice>>
    readonly find: (userId: UserId, id: BillingInvoiceId) => Effect.Effect<Option.Option<BillingInvoiceWithLines>>
    /** The user's finished invoices that wait for a mandate, or whose payment was cancelled. */
    readonly waitingForCollection: (userId: UserId) => Effect.Effect<ReadonlyArray<BillingInvoice>>
    readonly pdf: (userId: UserId, id: BillingInvoiceId) => Effect.Effect<Option.Option<Uint8Array>>
    /** The invoice collected by the provider's payment (PM...), whoever's it is: the provider's events name only that. */
    readonly findByPaymentReference: (reference: string) => Effect.Effect<Option.Option<BillingInvoice>>
    /**
     * Moves the invoice's payment status from `from` to `to` only if it still is `from`; false when
     * something else moved it first. Records `at` as when its payment was last read, and a move to
     * Failed as the time of the failure.
     */
    readonly movePaymentStatus: (
      invoice: BillingInvoice,
      from: InvoicePaymentStatus,
      to: InvoicePaymentStatus,
      at: Date
    ) => Effect.Effect<boolean>
    /** Records `at` as when the payments of the user's invoices `ids` were last read from the provider. */
    readonly recordPaymentsRead: (userId: UserId, ids: ReadonlyArray<BillingInvoiceId>, at: Date) => Effect.Effect<void>
    /**
     * The finished invoices (of every user) whose payment is Failed, lowest number first: the
     * billing run collects each again, or moves it to wait for a mandate.
     */
    readonly failedInvoices: Effect.Effect<ReadonlyArray<BillingInvoice>>
    /**
     * Records a retry of the invoice's failed payment, now `to` at the provider, with one more
     * retry counted; only while it is still Failed with the retries `invoice` has (false otherwise).
     */
    readonly recordRetry: (invoice: BillingInvoice, to: InvoicePaymentStatus) => Effect.Effect<boolean>
  }
>() {}
