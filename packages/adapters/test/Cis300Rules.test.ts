import { describe, expect, it } from "@effect/vitest"
import { isValidAccountsOfficeReference } from "@cisbook/core/cis/CisScheme"
import { paymentShares } from "@cisbook/core/invoices/PaymentShares"
import { deductionDue } from "@cisbook/core/returns/DeductionRate"
import type { Cis300Return, Cis300Subcontractor } from "../src/taxauthority/cis300/Cis300Return.js"
import { cis300Problems } from "../src/taxauthority/cis300/Cis300Rules.js"

const net: Cis300Subcontractor = {
  name: { title: null, forenames: ["Jo"], surname: "Smith" },
  tradingName: null,
  worksRef: "SMITH",
  unmatchedRate: false,
  utr: "2234567890",
  crn: null,
  nino: "AB123456C",
  verificationNumber: null,
  taxTreatment: "Net",
  totalPayments: 100_000,
  costOfMaterials: 40_000,
  totalDeducted: 12_000,
  drafted: false
}

const unmatched: Cis300Subcontractor = {
  ...net,
  name: null,
  tradingName: "Stone Ltd",
  worksRef: "STONE",
  unmatchedRate: true,
  utr: null,
  nino: null,
  crn: "SC123456",
  verificationNumber: "V1234567890A",
  taxTreatment: "Unmatched",
  totalDeducted: 18_000
}

const valid: Cis300Return = {
  transactionId: "0197A3C45E6F7A8B9CAD0E1F2A3B4C5D",
  periodEnd: "2026-06-05",
  scheme: { taxOfficeNumber: "123", taxOfficeReference: "AB456", accountsOfficeReference: "123PW12345678" },
  contractorUtr: "8456789123",
  sender: "Company",
  nilReturn: false,
  inactive: false,
  subcontractors: [net, unmatched],
  declarations: { employmentStatus: true, verification: true, informationCorrect: true }
}

const withLine = (change: Partial<Cis300Subcontractor>): Cis300Return => ({
  ...valid,
  subcontractors: [{ ...net, ...change }]
})

describe("HMRC's rules for a CIS300", () => {
  it("passes a return that meets them: an unmatched subcontractor may lack a UTR", () => {
    expect(cis300Problems(valid)).toEqual([])
  })

  it("needs the period end on the 5th of a month", () => {
    expect(cis300Problems({ ...valid, periodEnd: "2026-06-06" })).toEqual([
      "The period end 2026-06-06 is not the 5th of a month."
    ])
    expect(cis300Problems({ ...valid, periodEnd: "2026-13-05" })).toHaveLength(1)
  })

  it("needs the contractor's UTR with a valid check digit, and its Accounts Office and employer references", () => {
    expect(cis300Problems({ ...valid, contractorUtr: "1234567890" })).toEqual([
      "The contractor's UTR 1234567890 is not valid."
    ])
    expect(cis300Problems({ ...valid, contractorUtr: null })).toHaveLength(1)
    expect(cis300Problems({ ...valid, scheme: { ...valid.scheme, accountsOfficeReference: "123PA12345678" } })).toEqual(
      ["The contractor's Accounts Office reference 123PA12345678 is not valid."]
    )
    expect(cis300Problems({ ...valid, scheme: { ...valid.scheme, taxOfficeNumber: "12" } })).toHaveLength(1)
    expect(cis300Problems({ ...valid, scheme: { ...valid.scheme, taxOfficeReference: "AB/456" } })).toHaveLength(1)
  })

  it("needs at least one subcontractor unless it is a nil return, and none on a nil return", () => {
    expect(cis300Problems({ ...valid, subcontractors: [] })).toEqual([
      "A return lists at least one subcontractor, unless it is a nil return."
    ])
    expect(cis300Problems({ ...valid, nilReturn: true, subcontractors: [] })).toEqual([])
    expect(cis300Problems({ ...valid, nilReturn: true })).toEqual(["A nil return lists no subcontractors."])
  })

  it("needs a name (at most two forenames) or a trading name", () => {
    expect(cis300Problems(withLine({ name: null, tradingName: null }))).toEqual([
      "(SMITH): a name or a trading name of at most 56 characters is needed."
    ])
    expect(cis300Problems(withLine({ name: null, tradingName: "x".repeat(57) }))).toHaveLength(1)
    expect(cis300Problems(withLine({ name: { title: null, forenames: ["A", "B", "C"], surname: "Smith" } }))).toEqual([
      "A B C Smith (SMITH): an individual has at most two forenames."
    ])
    expect(cis300Problems(withLine({ name: { title: null, forenames: [], surname: "S".repeat(36) } }))).toHaveLength(1)
  })

  it("needs a valid UTR unless the deduction is at the higher rate, and a valid NINO and CRN where given", () => {
    expect(cis300Problems(withLine({ utr: null }))).toEqual([
      "Jo Smith (SMITH): a UTR is needed unless the deduction is at the higher (unmatched) rate."
    ])
    expect(cis300Problems(withLine({ utr: "1234567890" }))).toEqual([
      "Jo Smith (SMITH): the UTR 1234567890 is not valid (its check digit does not match)."
    ])
    expect(cis300Problems(withLine({ nino: "QQ123456E" }))).toEqual([
      "Jo Smith (SMITH): the NINO QQ123456E is not valid."
    ])
    expect(cis300Problems(withLine({ crn: "123456789" }))).toEqual([
      "Jo Smith (SMITH): the CRN 123456789 is not valid."
    ])
  })

  it("needs the verification number of an unmatched subcontractor, in HMRC's form", () => {
    const line = { ...unmatched }
    expect(cis300Problems({ ...valid, subcontractors: [{ ...line, verificationNumber: null }] })).toEqual([
      "Stone Ltd (STONE): an unmatched subcontractor needs its verification number."
    ])
    expect(cis300Problems({ ...valid, subcontractors: [{ ...line, verificationNumber: "V1234567890/A" }] })).toEqual([
      "Stone Ltd (STONE): the verification number V1234567890/A is not valid."
    ])
  })

  it("needs amounts in whole pence, not negative, within HMRC's bounds, and materials within payments", () => {
    expect(cis300Problems(withLine({ totalDeducted: -1 }))).toEqual([
      "Jo Smith (SMITH): amounts must be whole pence and not negative."
    ])
    expect(cis300Problems(withLine({ costOfMaterials: 10.5 }))).toHaveLength(1)
    expect(cis300Problems(withLine({ totalPayments: 100_000_000_00, costOfMaterials: 0, totalDeducted: 0 }))).toEqual([
      "Jo Smith (SMITH): payments and materials must be at most £99,999,999."
    ])
    expect(cis300Problems(withLine({ costOfMaterials: 100_001, totalDeducted: 0 }))).toEqual([
      "Jo Smith (SMITH): the cost of materials cannot exceed the total payments."
    ])
  })

  it("needs the deduction within the rate of the subcontractor's treatment", () => {
    expect(cis300Problems(withLine({ totalDeducted: 12_001 }))).toEqual([
      "Jo Smith (SMITH): £120.01 deducted is more than the 20 % (Net) rate allows: £120.00."
    ])
    expect(cis300Problems(withLine({ taxTreatment: "Gross", totalDeducted: 1 }))).toHaveLength(1)
    expect(cis300Problems(withLine({ taxTreatment: "Gross", totalDeducted: 0 }))).toEqual([])
  })

  it("takes a drafted line's deduction as its payments' shares add up, a penny over the rate included", () => {
    // Two bills of a Net subcontractor, each part paid in the month (pence): the shares of each
    // payment, rounded half up, add up to a penny more than 20 % of the line's gross less materials.
    const bills = [
      { gross: 11_407, materials: 2_200, paid: 4_700 },
      { gross: 16_407, materials: 2_400, paid: 1_800 }
    ]
    const shares = bills.map(({ gross, materials, paid }) => {
      const cisDeduction = deductionDue("Net", gross, materials)
      const figures = { gross, materials, cisDeduction }
      return paymentShares(
        figures,
        gross - cisDeduction,
        { amount: 0, shares: { gross: 0, materials: 0, cisDeduction: 0 } },
        paid
      )
    })
    const sum = (key: "gross" | "materials" | "cisDeduction") => shares.reduce((total, s) => total + s[key], 0)
    const drafted = {
      totalPayments: sum("gross"),
      costOfMaterials: sum("materials"),
      totalDeducted: sum("cisDeduction")
    }
    expect(drafted).toEqual({ totalPayments: 7_776, costOfMaterials: 1_399, totalDeducted: 1_276 })
    expect(cis300Problems(withLine({ ...drafted, drafted: true }))).toEqual([])
    expect(cis300Problems(withLine({ ...drafted, drafted: false }))).toEqual([
      "Jo Smith (SMITH): £12.76 deducted is more than the 20 % (Net) rate allows: £12.75."
    ])
  })

  it("needs the declarations made", () => {
    const declarations = { employmentStatus: false, verification: true, informationCorrect: true }
    expect(cis300Problems({ ...valid, declarations })).toEqual([
      "The employment status and verification declarations must be made."
    ])
    expect(cis300Problems({ ...valid, declarations: { ...valid.declarations, informationCorrect: false } })).toEqual([
      "The information must be declared correct."
    ])
  })
})

describe("an Accounts Office reference", () => {
  it("has HMRC's shape and its modulus-23 check letter", () => {
    expect(isValidAccountsOfficeReference("123PW12345678")).toBe(true)
    expect(isValidAccountsOfficeReference("123PA12345678")).toBe(false)
    expect(isValidAccountsOfficeReference("123XW12345678")).toBe(false)
    expect(isValidAccountsOfficeReference("123PW1234567")).toBe(false)
    expect(isValidAccountsOfficeReference("123pw12345678")).toBe(false)
  })
})
