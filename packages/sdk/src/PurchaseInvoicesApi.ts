import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import {
  CreatePurchaseInvoiceRequest,
  InvoiceListParams,
  PurchaseInvoiceDto,
  PurchaseInvoiceDtoPagedResult
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
        "The contact must be a supplier of the tenant (else 400). The number is required and unique among that supplier's invoices (409). Amounts are 0 or more with at most 2 decimals; cisDeduction is at most the subtotal; dueDate is on or after issueDate."
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
      .annotate(OpenApi.Summary, "One purchase invoice")
      .annotate(OpenApi.Description, "Amounts are pounds with at most 2 decimal places.")
  )
  .annotate(OpenApi.Title, "Purchase invoices")
  .annotate(OpenApi.Description, "Invoices from suppliers.")
  .pipe(forTenantMembers) {}
