import { BillingInvoice, BillingInvoiceLine } from "@cisbook/core/billing/billinginvoices/BillingInvoice"
import { BillingInvoiceId, MonthlyReturnId, TenantId, UserId } from "@cisbook/core/Ids"
import { BillingInvoiceDto } from "@cisbook/sdk/BillingDtos"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { billingInvoiceDto } from "../src/dto/BillingDto.js"

const invoice = new BillingInvoice({
  id: BillingInvoiceId.make("0197a3c4-0000-7000-8000-000000000001"),
  userId: UserId.make("0197a3c4-1111-7000-8000-000000000001"),
  number: "CB-000042",
  issueDate: "2026-07-01",
  periodStart: "2026-05-05",
  periodEnd: "2026-06-05",
  currency: "GBP",
  subtotal: 1201,
  vat: 240,
  total: 1441,
  paymentStatus: "Pending",
  paymentReference: "PM000123",
  mandateReference: "MD000123",
  hasPdf: true,
  finished: true,
  failedAt: null,
  paymentRetries: 0,
  paymentReadAt: new Date("2026-07-01T10:00:00Z")
})

const line = new BillingInvoiceLine({
  description: "CIS return, tax month ending 5 June 2026 (Lovelace Builders Ltd)",
  tenantId: TenantId.make("0197a3c4-2222-7000-8000-000000000001"),
  tenant: "lovelace",
  returnId: MonthlyReturnId.make("0197a3c4-3333-7000-8000-000000000001"),
  quantity: 12,
  unitPrice: 100,
  amount: 1201
})

const encode = Schema.encodeSync(BillingInvoiceDto)

// The DTOs are built without the constructor's validation: the endpoint's encoding still checks them.
describe("billingInvoiceDto", () => {
  it("encodes as the validated DTO does, in the list's form and with lines", () => {
    const validated = BillingInvoiceDto.make({
      id: invoice.id,
      number: invoice.number,
      issueDate: invoice.issueDate,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      currency: invoice.currency,
      subtotal: invoice.subtotal,
      vat: invoice.vat,
      total: invoice.total,
      paymentStatus: invoice.paymentStatus,
      paymentReference: invoice.paymentReference,
      hasPdf: invoice.hasPdf
    })
    expect(encode(billingInvoiceDto(invoice))).toStrictEqual(encode(validated))
    expect(encode(billingInvoiceDto(invoice))).toStrictEqual({
      id: invoice.id,
      number: "CB-000042",
      issueDate: "2026-07-01",
      periodStart: "2026-05-05",
      periodEnd: "2026-06-05",
      currency: "GBP",
      subtotal: 12.01,
      vat: 2.4,
      total: 14.41,
      paymentStatus: "Pending",
      paymentReference: "PM000123",
      hasPdf: true
    })
    expect(encode(billingInvoiceDto(invoice, [line])).lines).toStrictEqual([
      {
        description: line.description,
        tenant: "lovelace",
        returnId: line.returnId,
        quantity: 12,
        unitPrice: 1,
        amount: 12.01
      }
    ])
  })

  it("is refused on encoding when a member is not what the wire allows", () => {
    expect(() => encode(billingInvoiceDto(new BillingInvoice({ ...invoice, subtotal: 12.5 }, true)))).toThrow()
    expect(() =>
      encode(billingInvoiceDto(new BillingInvoice({ ...invoice, paymentStatus: "Lost" as "Pending" }, true)))
    ).toThrow()
  })
})
