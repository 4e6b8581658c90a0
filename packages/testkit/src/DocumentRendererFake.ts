import { BillingInvoiceRenderer } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRenderer"
import { StatementRenderer } from "@cisbook/core/returns/StatementRenderer"
import { Effect, Layer } from "effect"

const asJson = (document: unknown) => Effect.succeed(new TextEncoder().encode(JSON.stringify(document)))

/** Documents as the JSON of what they were asked to show, so that tests can read them back. */
export const DocumentRendererFake = Layer.mergeAll(
  Layer.succeed(StatementRenderer, StatementRenderer.of({ cisStatement: asJson })),
  Layer.succeed(BillingInvoiceRenderer, BillingInvoiceRenderer.of({ billingInvoice: asJson }))
)
