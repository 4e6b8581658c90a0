import { ConnectionDto } from "@cisbook/core/connections/ConnectionView"
import { ContactDto } from "@cisbook/core/contacts/ContactView"
import type { EventType } from "@cisbook/core/events/Event"
import { SalesInvoiceDto } from "@cisbook/core/invoices/SalesInvoiceView"
import { MonthlyReturnDto } from "@cisbook/core/returns/MonthlyReturnView"
import { TestWebhookData } from "@cisbook/core/webhooks/TestWebhookData"
import { WebhookDisabledData } from "@cisbook/core/webhooks/WebhookDisabledData"
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
    data: TestWebhookData
  },
  "contact.created": { summary: "A contact was created; data is the contact", data: ContactDto },
  "contact.updated": { summary: "A contact was updated; data is the contact as it is now", data: ContactDto },
  "contact.deleted": { summary: "A contact was deleted; data is the contact as it was", data: ContactDto },
  "subcontractor.created": {
    summary: "A contact became a CIS subcontractor (created as one, imported, or given the role for the first time)",
    data: ContactDto
  },
  "sales-invoice.created": {
    summary: "A sales invoice was created; data is the invoice, with its payments (none yet)",
    data: SalesInvoiceDto
  },
  "sales-invoice.paid": {
    summary: "A payment left nothing due on a sales invoice; data is the invoice, with every payment",
    data: SalesInvoiceDto
  },
  "monthly-return.accepted": {
    summary: "The tax authority accepted a monthly return; data is the return",
    data: MonthlyReturnDto
  },
  "monthly-return.rejected": {
    summary: "The tax authority rejected a monthly return; data is the return, with the reason",
    data: MonthlyReturnDto
  },
  "connection.connected": {
    summary:
      "A connection was accepted; sent to both tenants, data being the connection as that tenant sees it (its own side, contact and counterparty)",
    data: ConnectionDto
  },
  "webhook.disabled": {
    summary:
      "The service disabled a webhook: its endpoint answered 410 Gone, or every attempt to it failed for 5 days; sent to the tenant's other webhooks",
    data: WebhookDisabledData
  }
}
