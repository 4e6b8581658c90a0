import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  CreateSalesInvoicePaymentRequest,
  CreateSalesInvoiceRequest,
  InvoiceListParams,
  PaymentsReportHeaders,
  PaymentsReportParams,
  SalesInvoiceDto,
  SalesInvoiceDtoPagedResult,
  SalesInvoicePaymentDto,
  SalesInvoicePaymentsCsv,
  salesInvoicePaymentsCsvMedia,
  SalesInvoicePaymentsReport
} from "./InvoiceDtos.js"
import { InvoiceMailRequest, QueuedMailDto } from "./MailDtos.js"
import { ConflictProblem, ForbiddenProblem, NotFoundProblem, RefusedProblem, ValidationProblem } from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"
import { forTenantMembers } from "./Access.js"

const invoiceParam = HttpApiSchema.param("invoice", Schema.String)

type Json = Record<string, any>

/** The report has two forms under one status: the document lists each under its own media type. */
const twoForms = (operation: Json): Json => {
  // OpenAPI ignores a header parameter named Accept: the responses say what it chooses.
  operation.parameters = (operation.parameters ?? []).filter((p: Json) => !(p.in === "header" && p.name === "accept"))
  const ok = operation.responses?.["200"]
  if (ok) {
    ok.description = "The report: JSON, or CSV when the request says Accept: text/csv"
    ok.content = {
      "application/json": { schema: { $ref: "#/components/schemas/SalesInvoicePaymentsReport" } },
      "text/csv": salesInvoicePaymentsCsvMedia
    }
  }
  return operation
}

export class SalesInvoicesApi extends HttpApiGroup.make("salesInvoices")
  .add(
    HttpApiEndpoint.get("listSalesInvoicePayments")`/tenants/${tenantParam}/sales-invoices/payments`
      .setUrlParams(PaymentsReportParams)
      .setHeaders(PaymentsReportHeaders)
      .addSuccess(SalesInvoicePaymentsReport)
      .addSuccess(SalesInvoicePaymentsCsv)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Every payment of the tenant's sales invoices between two dates, both included")
      .annotate(
        OpenApi.Description,
        "A payment is listed when its date lies between the UTC calendar dates of from and to, both included; oldest first. Each payment carries its invoice's number, dates and reference, the customer, the amount and its share of the invoice's CIS deduction. from or to missing or not a date-time, or from after to, is 400. With Accept: text/csv the same report comes as CSV."
      )
      .annotate(OpenApi.Transform, twoForms)
  )
  .add(
    HttpApiEndpoint.post("createSalesInvoice")`/tenants/${tenantParam}/sales-invoices`
      .setPayload(CreateSalesInvoiceRequest)
      .addSuccess(SalesInvoiceDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "Invoice a customer")
      .annotate(
        OpenApi.Description,
        "The contact must be a customer of the tenant (else 400). Without a number the invoice gets the next INV-000001-style number; a number the tenant has used is 409. Amounts are 0 or more with at most 2 decimals; cisDeduction is at most the subtotal; dueDate is on or after issueDate. The answer has no payments member (only the single-invoice GET has). Records sales-invoice.created, whose data has payments: []."
      )
  )
  .add(
    HttpApiEndpoint.get("listSalesInvoices")`/tenants/${tenantParam}/sales-invoices`
      .setUrlParams(InvoiceListParams)
      .addSuccess(SalesInvoiceDtoPagedResult)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "A page of the tenant's sales invoices, newest issue date first (without payments)")
      .annotate(
        OpenApi.Description,
        "contact filters by customer; offset and limit choose the page. Payments are left out: get one invoice for them."
      )
  )
  .add(
    HttpApiEndpoint.get("getSalesInvoice")`/tenants/${tenantParam}/sales-invoices/${invoiceParam}`
      .addSuccess(SalesInvoiceDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One sales invoice, with its payments")
      .annotate(
        OpenApi.Description,
        "Amounts are pounds with at most 2 decimal places; amountDue is what is still to be paid."
      )
  )
  .add(
    HttpApiEndpoint.post("createSalesInvoicePayment")`/tenants/${tenantParam}/sales-invoices/${invoiceParam}/payments`
      .setPayload(CreateSalesInvoicePaymentRequest)
      .addSuccess(SalesInvoicePaymentDto, { status: 201 })
      .addError(ConflictProblem)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Record a payment received towards a sales invoice")
      .annotate(
        OpenApi.Description,
        "The amount must be more than 0 and at most the invoice's amountDue (else 400). The payment carries its share of the invoice's CIS deduction (see the payments report). Records sales-invoice.paid when nothing is due any more."
      )
  )
  .add(
    HttpApiEndpoint.post("emailSalesInvoice")`/tenants/${tenantParam}/sales-invoices/${invoiceParam}/email`
      .setPayload(InvoiceMailRequest)
      .addSuccess(QueuedMailDto, { status: 202 })
      .addError(ConflictProblem)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Email the invoice to the customer")
      .annotate(
        OpenApi.Description,
        "Renders the tenant's SalesInvoice template (amounts as £1,234.56, dates as 5 June 2026, the tenant's signature at the end) and queues it to to, else to the customer's email address (400 naming to when neither exists). From: MAIL_FROM with the tenant's name; Reply-To: the tenant's email, else the caller's."
      )
  )
  .add(
    HttpApiEndpoint.post("sendPaymentReminder")`/tenants/${tenantParam}/sales-invoices/${invoiceParam}/reminders`
      .setPayload(InvoiceMailRequest)
      .addSuccess(QueuedMailDto, { status: 202 })
      .addError(ConflictProblem)
      .addError(ValidationProblem)
      .addError(RefusedProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Email a payment reminder for an overdue invoice")
      .annotate(
        OpenApi.Description,
        "As the invoice email, with the PaymentReminder template (daysOverdue counts the days since the due date). 400 unless the invoice is overdue: its due date is before today (UK time) and an amount is still due."
      )
  )
  .annotate(OpenApi.Title, "Sales invoices")
  .annotate(OpenApi.Description, "Invoices to customers, the payments received, and the payments report.")
  .pipe(forTenantMembers) {}
