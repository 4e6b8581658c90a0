import { Context, type Effect, type Option, Schema } from "effect"
import type { ConnectionId, ContactId, MailId, MonthlyReturnId, TenantId } from "../Ids.js"
import type { TenantCode } from "../tenants/Tenant.js"

/**
 * A statement of an accepted return that went out, as the acceptance records it: mailed to the
 * subcontractor (`mailId`, with the PDF that was attached), and/or to be delivered into its
 * tenant over the connection `deliverVia` (then due at once: the row is its own outbox entry).
 */
export interface IssuedStatement {
  readonly tenantId: TenantId
  readonly monthlyReturnId: MonthlyReturnId
  readonly contactId: ContactId
  readonly contactCode: string
  /** The PDF that was mailed; null when none was (the delivery draws and keeps it). */
  readonly pdf: Uint8Array | null
  readonly mailId: MailId | null
  readonly deliverVia: ConnectionId | null
  readonly issuedAt: Date
}

/** Due until a deliverer records it Delivered, or Dropped (its connection went first). */
export const DeliveryStatus = Schema.Literal("Due", "Delivered", "Dropped")
export type DeliveryStatus = typeof DeliveryStatus.Type

/** What became of one statement of a return, as its contractor sees it. */
export interface StatementSending {
  readonly contactId: ContactId
  readonly mailId: MailId | null
  /** Null for a statement not to be delivered (its subcontractor was not connected). */
  readonly delivery: {
    readonly status: DeliveryStatus
    /** The subcontractor's tenant, once Delivered. */
    readonly deliveredTo: TenantCode | null
    readonly deliveredAt: Date | null
  } | null
}

/** A Due delivery, leased to one worker. */
export interface ClaimedDelivery {
  readonly tenantId: TenantId
  readonly monthlyReturnId: MonthlyReturnId
  readonly contactId: ContactId
  readonly connectionId: ConnectionId
  /** Identifies this lease; an outcome is recorded only while the lease is still this one. */
  readonly leaseToken: string
}

/** What came of a delivery. */
export type DeliveryOutcome =
  /** Into the subcontractor's tenant, with the statement's PDF (kept for the contractor too, unless one was). */
  | {
      readonly _tag: "Delivered"
      readonly to: { readonly tenantId: TenantId; readonly tenantCode: TenantCode }
      readonly at: Date
      readonly pdf: Uint8Array
    }
  /** Not delivered: the connection was removed (or changed sides) after the acceptance. */
  | { readonly _tag: "Dropped"; readonly at: Date }

/**
 * The statements of accepted returns that went out (by mail, or into a connected subcontractor's
 * tenant), one per return and contact, written in the transaction that records the acceptance.
 * A statement to be delivered is its own outbox entry: Due until a worker records it.
 */
export class ReturnStatementRepo extends Context.Tag("core/ReturnStatementRepo")<
  ReturnStatementRepo,
  {
    /** Records the statements; a return's statement of a contact is recorded once (a second is ignored). */
    readonly insert: (statements: ReadonlyArray<IssuedStatement>) => Effect.Effect<void>
    /** The return's statements that went out, in no particular order. */
    readonly list: (
      tenantId: TenantId,
      monthlyReturnId: MonthlyReturnId
    ) => Effect.Effect<ReadonlyArray<StatementSending>>
    /** The PDF of the return's statement of the contact as it went out, if one was kept. */
    readonly pdf: (
      tenantId: TenantId,
      monthlyReturnId: MonthlyReturnId,
      contactId: ContactId
    ) => Effect.Effect<Option.Option<Uint8Array>>
    /**
     * Leases up to `limit` Due deliveries (of every tenant) whose lease is free or ran out at
     * `now`, until `leaseUntil`, earliest issued first; each to one caller however many claim at
     * once. A lease that runs out unrecorded makes the delivery due again.
     */
    readonly claimDeliveries: (
      now: Date,
      leaseUntil: Date,
      limit: number
    ) => Effect.Effect<ReadonlyArray<ClaimedDelivery>>
    /**
     * Records the outcome and ends the lease; false (and nothing changed) when the lease was
     * taken over or the delivery is no longer Due. Call it in the transaction that also does what
     * the outcome brings.
     */
    readonly recordDelivery: (claimed: ClaimedDelivery, outcome: DeliveryOutcome) => Effect.Effect<boolean>
  }
>() {}
