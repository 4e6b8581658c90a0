import { ContactActivity } from "@cisbook/core/ports/ContactActivity"
import { Effect, Layer } from "effect"

const none = () => Effect.succeed(false)

// The invoices and connections capabilities will answer these from their tables (not there yet).
export const ContactActivitySql = Layer.succeed(
  ContactActivity,
  ContactActivity.of({ hasSalesInvoices: none, hasPurchaseInvoices: none, hasConnections: none })
)
