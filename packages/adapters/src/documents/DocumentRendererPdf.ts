import { BillingInvoiceRenderer } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRenderer"
import { StatementRenderer } from "@cisbook/core/returns/StatementRenderer"
import { Layer } from "effect"
import { billingInvoicePdf } from "./BillingInvoicePdf.js"
import { cisStatementPdf } from "./CisStatementPdf.js"

/** Documents as PDF, drawn with PDFKit's standard fonts (no font files to ship). */
export const DocumentRendererPdf = Layer.mergeAll(
  Layer.succeed(StatementRenderer, StatementRenderer.of({ cisStatement: cisStatementPdf })),
  Layer.succeed(BillingInvoiceRenderer, BillingInvoiceRenderer.of({ billingInvoice: billingInvoicePdf }))
)
