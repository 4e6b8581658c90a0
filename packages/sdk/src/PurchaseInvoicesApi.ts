import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  CreatePurchaseInvoicePaymentRequest,
  CreatePurchaseInvoiceRequest,
  InvoiceListParams,
  PurchaseInvoiceDto,
  PurchaseInvoiceDtoPagedResult,
  PurchaseInvoicePaymentDto
} from "./InvoiceDtos.js"
import { ConflictProblem, ForbiddenProblem, NotFoundProblem, ValidationProblem } from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"
import { forTenantMembers } from "./Access.js"

const invoiceParam = HttpApiSchema.param("invoice", Schema.String)

export class PurchaseInvoicesApi extends HttpApiGroup.make("purchaseInvoices")
  .add(
    HttpApiEndpoint.post("createPurchaseInvoice")`/tenants/${tenantParam}/purchase-invoices`
      .setPayload(CreatePurchaseInvoiceRequest)
      .addSuccess(PurchaseInvoiceDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "Record an invoice from a supplier")
      .annotate(
        OpenApi.Description,
        "The contact must be a supplier of the tenant (else 400). The number is required and unique among that supplier's invoices (409). Amounts are 0 or more with at most 2 decimals; dueDate is on or after issueDate. A CIS subcontractor's bill: the contact must be Verified (else 400 naming contact); materials is at most the subtotal; the service works out cisDeduction as the rate of the verified taxTreatment (Gross 0 %, Net 20 %, Unmatched 30 %) × (subtotal − materials), rounded down to the penny, and records taxTreatment; a cisDeduction given must equal it (400 naming cisDeduction, the detail giving the figure). Another supplier's bill: materials 0, taxTreatment null, cisDeduction as given (at most the subtotal). The answer has no payments member (only the single-invoice GET has)."
      )
  )
  .add(
    HttpApiEndpoint.get("listPurchaseInvoices")`/tenants/${tenantParam}/purchase-invoices`
      .setUrlParams(InvoiceListParams)
      .addSuccess(PurchaseInvoiceDtoPagedResult)
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "A page of the tenant's purchase invoices, newest issue date first")
      .annotate(OpenApi.Description, "contact filters by supplier; offset and limit choose the page.")
  )
  .add(
    HttpApiEndpoint.get("getPurchaseInvoice")`/tenants/${tenantParam}/purchase-invoices/${invoiceParam}`
      .addSuccess(PurchaseInvoiceDto)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One purchase invoice, with its payments")
      .annotate(OpenApi.Description, "Amounts are pounds with at most 2 decimal places.")
  )
  .add(
    HttpApiEndpoint.post(
      "createPurchaseInvoicePayment"
    )`/tenants/${tenantParam}/purchase-invoices/${invoiceParam}/payments`
      .setPayload(CreatePurchaseInvoicePaymentRequest)
      .addSuccess(PurchaseInvoicePaymentDto, { status: 201 })
      .addError(ValidationProblem)
      .addError(ForbiddenProblem)
      .addError(NotFoundProblem)
      .addError(ConflictProblem)
      .annotate(OpenApi.Summary, "Record a payment made to a supplier towards a purchase invoice")
      .annotate(
        OpenApi.Description,
        "The amount must be more than 0 and at most the invoice's amountDue (else 400 naming amount). The payment carries its shares of the invoice's subtotal (grossAmount), materials and CIS deduction (deducted), by the sales rule: each figure × amount / (total − cisDeduction), rounded half up to the penny, the payment that completes the invoice taking the remainders. A payment of a CIS subcontractor's bill dated in a tax month for which the tenant has a Submitted, Held or Accepted return is 409 naming date: that return is filed without it."
      )
  )
  .annotate(OpenApi.Title, "Purchase invoices")
  .annotate(
    OpenApi.Description,
    "Invoices from suppliers, CIS subcontractors' bills among them, and the payments made."
  )
  .pipe(forTenantMembers) {}
