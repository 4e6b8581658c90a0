import { Context, type Effect, type Option } from "effect"
import type { ContactId, SalesInvoiceId, TenantId } from "../Ids.js"
import type { InvoiceStore } from "./InvoiceStore.js"
import type { ContactPayment, ReportedPayment, SalesInvoice, SalesInvoicePayment } from "./SalesInvoice.js"

/** The tenant's sales invoices and their payments: a number is taken when the tenant has an invoice with it. */
export class SalesInvoiceRepo extends Context.Tag("core/SalesInvoiceRepo")<
  SalesInvoiceRepo,
  InvoiceStore<SalesInvoice, SalesInvoiceId> & {
    /**
     * Inside a transaction: the tenant's next automatic number sequence (1, 2, ...), above every
     * sequence issued or claimed before. Concurrent callers wait for each other's transactions.
     */
    readonly nextSequence: (tenantId: TenantId) => Effect.Effect<number>
    /** Inside a transaction: counts `sequence` as issued, so that automatic numbering continues above it. */
    readonly claimSequence: (tenantId: TenantId, sequence: number) => Effect.Effect<void>
    /** Inside a transaction: findById, and no one else changes or pays the invoice until it ends. */
    readonly findByIdForUpdate: (tenantId: TenantId, id: SalesInvoiceId) => Effect.Effect<Option.Option<SalesInvoice>>
    /** The invoice's payments in the order they were recorded. */
    readonly payments: (
      tenantId: TenantId,
      invoiceId: SalesInvoiceId
    ) => Effect.Effect<ReadonlyArray<SalesInvoicePayment>>
    /** Records the payment and adds its amount to its invoice's amount paid. */
    readonly addPayment: (payment: SalesInvoicePayment) => Effect.Effect<void>
    /**
     * Every payment of the tenant's invoices dated from `from` to `to` (YYYY-MM-DD), both
     * included: by date, then by id.
     */
    readonly paymentsBetween: (
      tenantId: TenantId,
      from: string,
      to: string
    ) => Effect.Effect<ReadonlyArray<ReportedPayment>>
    /**
     * Every payment of the tenant's invoices to the customers `contactIds` dated from `from` to
     * `to` (YYYY-MM-DD), both included, with its invoice's customer: by date, then by id.
     */
    readonly paymentsFromContacts: (
      tenantId: TenantId,
      contactIds: ReadonlyArray<ContactId>,
      from: string,
      to: string
    ) => Effect.Effect<ReadonlyArray<ContactPayment>>
  }
>() {}
