import { describe, expect, it } from "@effect/vitest"
import { salesInvoiceNumber, salesInvoiceSequence } from "../../src/invoices/InvoiceNumber.js"

describe("sales invoice numbers", () => {
  it("are INV- and at least 6 digits", () => {
    expect(salesInvoiceNumber(1)).toBe("INV-000001")
    expect(salesInvoiceNumber(999999)).toBe("INV-999999")
    expect(salesInvoiceNumber(1000000)).toBe("INV-1000000")
  })

  it("give back the sequence of a number the service could have issued, else null", () => {
    expect(salesInvoiceSequence("INV-000042")).toBe(42)
    expect(salesInvoiceSequence("INV-1000000")).toBe(1000000)
    for (const other of ["INV-42", "INV-0000042", "inv-000042", "INV-000042 ", "2026/17", "INV-00004a"]) {
      expect(salesInvoiceSequence(other), other).toBeNull()
    }
  })
})
