import { ConnectionEventData } from "@cisbook/core/connections/ConnectionEventData"
import { ContactEventData } from "@cisbook/core/contacts/ContactEventData"
import type { EventType } from "@cisbook/core/events/Event"
import { SalesInvoiceEventData } from "@cisbook/core/invoices/SalesInvoiceEventData"
import { MonthlyReturnEventData } from "@cisbook/core/returns/MonthlyReturnEventData"
import { TestWebhookEventData } from "@cisbook/core/webhooks/TestWebhookEventData"
import { WebhookDisabledEventData } from "@cisbook/core/webhooks/WebhookDisabledEventData"
import { ReceivedStatementEventData } from "@cisbook/core/statements/ReceivedStatementEventData"
import type { Schema } from "effect"

export interface EventPayload {
  readonly summary: string
  /** The schema of the event's `data`. */
  readonly data: Schema.Schema.Any
}

/** What each kind of event carries: one entry per kind, so that a new kind cannot go undocumented. */
export const eventPayloads: { readonly [Type in EventType]: EventPayload } = {
  "test.webhook": {
    summary: "A test, queued by POST /tenants/{tenant}/webhooks/{webhook}/test",
    data: TestWebhookEventData
  },
  "contact.created": { summary: "A contact was created; data is the contact", data: ContactEventData },
  "contact.updated": { summary: "A contact was updated; data is the contact as it is now", data: ContactEventData },
  "contact.deleted": { summary: "A contact was deleted; data is the contact as it was", data: ContactEventData },
  "subcontractor.created": {
    summary: "A contact became a CIS subcontractor (created as one, imported, or given the role for the first time)",
    data: ContactEventData
  },
  "sales-invoice.created": {
    summary: "A sales invoice was created; data is the invoice, with its payments (none yet)",
    data: SalesInvoiceEventData
  },
  "sales-invoice.paid": {
    summary: "A payment left nothing due on a sales invoice; data is the invoice, with every payment",
    data: SalesInvoiceEventData
  },
  "monthly-return.accepted": {
    summary: "The tax authority accepted a monthly return; data is the return",
    data: MonthlyReturnEventData
  },
  "monthly-return.rejected": {
    summary: "The tax authority rejected a monthly return; data is the return, with the reason",
    data: MonthlyReturnEventData
  },
  "connection.connected": {
    summary:
      "A connection was accepted; sent to both tenants, data being the connection as that tenant sees it (its own side, contact and counterparty)",
    data: ConnectionEventData
  },
  "cis-statement.received": {
    summary:
      "A contractor the tenant is connected to had its monthly return accepted: data is the payment and deduction statement it delivered, reconciled with the tenant's sales-invoice payments",
    data: ReceivedStatementEventData
  },
  "webhook.disabled": {
    summary:
      "The service disabled a webhook: its endpoint answered 410 Gone, or every attempt to it failed for 5 days; sent to the tenant's other webhooks",
    data: WebhookDisabledEventData
  }
}
