import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { CisDetails } from "../../src/cis/CisDetails.js"
import { Contact, notVerified, Verification } from "../../src/contacts/Contact.js"
import { ContactId, TenantId } from "../../src/Ids.js"
import { maxDeduction } from "../../src/returns/DeductionRate.js"
import { lineErrors } from "../../src/returns/ReturnInput.js"

const subcontractor = (code: string, verification: Verification, isCisSubcontractor = true) =>
  new Contact({
    id: ContactId.make("00000000-0000-4000-8000-000000000001"),
    tenantId: TenantId.make("00000000-0000-4000-8000-000000000002"),
    code,
    name: code,
    email: null,
    externalId: null,
    isCustomer: false,
    isSupplier: true,
    isCisSubcontractor,
    vatRegistered: false,
    vatNumber: null,
    lastSdcDate: null,
    cisDetails: Schema.decodeSync(CisDetails)({
      type: "SoleTrader",
      firstName: "Jo",
      lastName: "Bloggs",
      utr: "2234567890"
    }),
    verification,
    supplierSettings: null,
    createdAt: new Date(0),
    updatedAt: new Date(0)
  })

const verified = (taxTreatment: "Gross" | "Net" | "Unmatched") =>
  new Verification({ ...notVerified, status: "Verified", taxTreatment, verificationNumber: "V1234567890" })

const contacts = new Map([
  ["NET", subcontractor("NET", verified("Net"))],
  ["HIGH", subcontractor("HIGH", verified("Unmatched"))],
  ["GROSS", subcontractor("GROSS", verified("Gross"))],
  ["NEW", subcontractor("NEW", notVerified)],
  ["CLIENT", subcontractor("CLIENT", verified("Net"), false)]
])

const line = (contact: string, grossAmount: number, materials: number, deducted: number) => ({
  contact,
  grossAmount,
  materials,
  deducted
})

describe("a return's lines", () => {
  it("may deduct at most the treatment's rate of gross less materials, rounded half up to the penny", () => {
    expect(maxDeduction("Net", 100000, 40000)).toBe(12000)
    expect(maxDeduction("Unmatched", 100000, 40000)).toBe(18000)
    expect(maxDeduction("Gross", 100000, 0)).toBe(0)
    expect(maxDeduction("Net", 3, 0)).toBe(1) // 0.6p rounds up
    expect(maxDeduction("Net", 2, 0)).toBe(0) // 0.4p rounds down
    expect(maxDeduction("Unmatched", 5, 0)).toBe(2) // 1.5p rounds half up
  })

  it("pass when each names a verified subcontractor once and keeps within the limits", () => {
    expect(
      lineErrors(
        [line("net", 100000, 40000, 12000), line("HIGH", 100000, 40000, 18000), line("Gross", 5000, 0, 0)],
        contacts
      )
    ).toEqual({})
  })

  it("name each line that breaks a rule, by its index", () => {
    expect(
      lineErrors(
        [
          line("NET", 100000, 40000, 12001),
          line("NEW", 100, 0, 0),
          line("CLIENT", 100, 0, 0),
          line("NOBODY", 100, 0, 0),
          line("net", 100, 200, 0),
          line("GROSS", 100, 0, 1)
        ],
        contacts
      )
    ).toEqual({
      "lines[0].deducted": ["At most 120.00 can be deducted: 20 % (Net) of grossAmount less materials"],
      "lines[1].contact": ["NEW is not verified: verify the subcontractor before filing a return"],
      "lines[2].contact": ["CLIENT is not a CIS subcontractor of the tenant"],
      "lines[3].contact": ["NOBODY is not a CIS subcontractor of the tenant"],
      "lines[4].contact": ["NET is on the return more than once"],
      "lines[4].materials": ["Materials cannot be more than grossAmount"],
      "lines[5].deducted": ["At most 0.00 can be deducted: 0 % (Gross) of grossAmount less materials"]
    })
  })
})
