import { DocumentRenderer } from "@cisbook/core/system/DocumentRenderer"
import { Layer } from "effect"
import { billingInvoicePdf } from "./BillingInvoicePdf.js"
import { cisStatementPdf } from "./CisStatementPdf.js"

/** Documents as PDF, drawn with PDFKit's standard fonts (no font files to ship). */
export const DocumentRendererPdf = Layer.succeed(
  DocumentRenderer,
  DocumentRenderer.of({ cisStatement: cisStatementPdf, billingInvoice: billingInvoicePdf })
)
