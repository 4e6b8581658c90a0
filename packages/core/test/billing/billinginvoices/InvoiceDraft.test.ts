import { describe, expect, it } from "@effect/vitest"
import { invoiceNumber } from "../../../src/billing/billinginvoices/BillingInvoice.js"
import { draftInvoice, lineDescription, vatOf } from "../../../src/billing/billinginvoices/InvoiceDraft.js"
import {
  invoicePaymentStatusOf,
  refreshedOnListing
} from "../../../src/billing/billinginvoices/InvoicePaymentStatus.js"
import { BillingInvoiceId, MonthlyReturnId, TenantId, UserId } from "../../../src/Ids.js"

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`

const usage = (n: number, tenantName: string, periodEnd: string, subcontractors: number) => ({
  returnId: MonthlyReturnId.make(uuid(n)),
  tenantId: TenantId.make(uuid(100 + n)),
  tenant: tenantName.toLowerCase().replace(/\W+/g, "-"),
  tenantName,
  periodEnd,
  subcontractors
})

const head = { id: BillingInvoiceId.make(uuid(1)), userId: UserId.make(uuid(2)), issueDate: "2026-07-01" }

describe("billing invoice rules", () => {
  it("VAT is 20 % of the subtotal rounded half up to the penny", () => {
    // 20 % of whole pence leaves a fifth of a penny: .2 and .4 go down, .6 and .8 go up.
    expect([0, 1, 2, 3, 4, 5, 100].map(vatOf)).toEqual([0, 0, 0, 1, 1, 1, 20])
    expect(vatOf(1252)).toBe(250) // 250.4p
    expect(vatOf(1253)).toBe(251) // 250.6p
    expect(vatOf(617_284)).toBe(123_457) // £6,172.84 → £1,234.568 → £1,234.57
    expect(vatOf(99_999_999_999)).toBe(20_000_000_000) // 19,999,999,999.8p, exact in a double
    for (let subtotal = 0; subtotal < 2000; subtotal++) expect(vatOf(subtotal)).toBe(Math.round(subtotal / 5))
  })

  it("one line per return, oldest tax month first, priced per subcontractor; the period spans the returns", () => {
    const draft = draftInvoice(
      head,
      [
        usage(3, "Lovelace Builders Ltd", "2026-06-05", 3),
        usage(4, "Babbage Roofing Ltd", "2026-06-05", 1),
        usage(5, "Lovelace Builders Ltd", "2026-04-05", 2)
      ],
      125
    )
    expect(draft.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.amount])).toEqual([
      ["CIS return, tax month ending 5 April 2026 (Lovelace Builders Ltd)", 2, 125, 250],
      ["CIS return, tax month ending 5 June 2026 (Babbage Roofing Ltd)", 1, 125, 125],
      ["CIS return, tax month ending 5 June 2026 (Lovelace Builders Ltd)", 3, 125, 375]
    ])
    expect(draft).toMatchObject({
      periodStart: "2026-04-05",
      periodEnd: "2026-06-05",
      subtotal: 750,
      vat: 150,
      total: 900,
      issueDate: "2026-07-01"
    })
  })

  it("describes a line by the tenant and the tax month", () => {
    expect(lineDescription("Lovelace Builders Ltd", "2026-06-05")).toBe(
      "CIS return, tax month ending 5 June 2026 (Lovelace Builders Ltd)"
    )
  })

  it("numbers invoices CB- and six digits, growing past a million", () => {
    expect(invoiceNumber(1)).toBe("CB-000001")
    expect(invoiceNumber(42)).toBe("CB-000042")
    expect(invoiceNumber(1_234_567)).toBe("CB-1234567")
  })

  it("maps the provider's payment statuses as the contract says", () => {
    const expected = {
      pending_customer_approval: "Pending",
      pending_submission: "Pending",
      submitted: "Pending",
      confirmed: "Paid",
      paid_out: "Paid",
      failed: "Failed",
      charged_back: "Failed",
      customer_approval_denied: "Failed",
      cancelled: "Cancelled"
    }
    for (const [provider, status] of Object.entries(expected)) expect(invoicePaymentStatusOf(provider)).toBe(status)
    expect(
      ["WaitingForMandate", "Pending", "Paid", "Failed", "Cancelled"].filter((s) => refreshedOnListing(s as never))
    ).toEqual(["Pending", "Failed"])
  })
})
