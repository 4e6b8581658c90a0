import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { analyseImportRow } from "../../src/contacts/import/AnalyseImportRow.js"
import { importColumns, matchColumns } from "../../src/contacts/ImportColumns.js"
import { importTemplateCsv } from "../../src/contacts/ImportTemplate.js"
import {
  readFlag,
  readTaxStatus,
  readVatRate,
  readVerificationDate,
  readVerificationNumber
} from "../../src/contacts/import/ImportValues.js"

const template = matchColumns(importColumns)

/** A template row with the given cells, every other cell blank. */
const row = (cells: Partial<Record<(typeof importColumns)[number], string>>) =>
  importColumns.map((column) => cells[column] ?? "")

const soleTrader = { Name: "Jo Bloggs", FirstName: "Jo", LastName: "Bloggs", UTR: "2234567890" }

const analyse = (cells: Partial<Record<(typeof importColumns)[number], string>>) =>
  analyseImportRow(7, row(cells), template, "2026-11-22")

const skipReason = (cells: Partial<Record<(typeof importColumns)[number], string>>) => analyse(cells).skipReason

describe("import columns", () => {
  it("finds the template's columns, however the header spells them", () => {
    expect(template).toEqual(Object.fromEntries(importColumns.map((column, i) => [column, i])))
    expect(
      matchColumns([
        "first name",
        "FIRST_NAME",
        "Last-Name",
        "u.t.r.",
        "N.I. Number",
        "E-mail",
        "*ContactName",
        "Surname",
        "Phone",
        " vat registered ",
        "Tax Treatment"
      ])
    ).toEqual({
      FirstName: 0,
      LastName: 2,
      UTR: 3,
      NINumber: 4,
      Email: 5,
      Name: 6,
      VATRegistered: 9,
      TaxStatus: 10
    })
    expect(matchColumns(["Phone", "Address"])).toEqual({})
  })

  it("offers a template whose header is the columns and whose example row imports", () => {
    const [header, example, end] = importTemplateCsv.split("\r\n")
    expect(header).toBe(importColumns.join(","))
    expect(end).toBe("")
    const analysed = analyseImportRow(1, example!.split(","), template, "2026-11-22")
    expect(analysed.skipReason).toBeNull()
    expect(analysed.verification).toEqual({
      verificationNumber: "V1234567890",
      verificationDate: "2026-04-06",
      taxTreatment: "Net"
    })
  })
})

describe("import cell values", () => {
  it("reads flags as true/false, yes/no, y/n or 1/0 in any case; blank is no value", () => {
    const flag = readFlag("VATRegistered")
    for (const yes of ["true", "YES", "y", "1", "True"]) expect(flag(yes)).toEqual(Either.right(true))
    for (const no of ["false", "No", "N", "0"]) expect(flag(no)).toEqual(Either.right(false))
    expect(flag("")).toEqual(Either.right(null))
    expect(flag("maybe")).toEqual(
      Either.left('VATRegistered "maybe" is not yes or no (true/false, yes/no, y/n or 1/0)')
    )
  })

  it("reads tax statuses by name, by HMRC's words and by rate", () => {
    const expected = {
      Gross: ["Gross", "gross", "0", "0%"],
      Net: ["Net", "NET", "20", "20%"],
      Unmatched: ["Unmatched", "higher", "Higher", "30", "30 %"]
    }
    for (const [treatment, spellings] of Object.entries(expected)) {
      for (const spelling of spellings) expect(readTaxStatus(spelling)).toEqual(Either.right(treatment))
    }
    expect(Either.isLeft(readTaxStatus("40"))).toBe(true)
  })

  it("reads VAT rates loosely", () => {
    expect(readVatRate("Reverse Charge")).toEqual(Either.right("ReverseCharge"))
    expect(readVatRate("no_vat")).toEqual(Either.right("NoVat"))
    expect(readVatRate("20%")).toEqual(Either.right("Standard"))
    expect(readVatRate("zero-rated")).toEqual(Either.right("Zero"))
    expect(Either.isLeft(readVatRate("Luxury"))).toBe(true)
  })

  it("reads verification numbers with or without an unmatched suffix", () => {
    expect(readVerificationNumber("v 1234567890")).toEqual(Either.right("V1234567890"))
    expect(readVerificationNumber("V1234567890/A")).toEqual(Either.right("V1234567890/A"))
    expect(readVerificationNumber("V1234567890AB")).toEqual(Either.right("V1234567890AB"))
    for (const bad of ["V123456789", "1234567890", "V1234567890/I", "V1234567890/ABC", "V1234567890/"]) {
      expect(Either.isLeft(readVerificationNumber(bad))).toBe(true)
    }
  })

  it("reads verification dates written the ISO or the UK way, never in the future", () => {
    const date = readVerificationDate("2026-11-22")
    expect(date("2026-04-06")).toEqual(Either.right("2026-04-06"))
    expect(date("06/04/2026")).toEqual(Either.right("2026-04-06"))
    expect(date("6/4/2026")).toEqual(Either.right("2026-04-06"))
    expect(date("06.04.2026")).toEqual(Either.right("2026-04-06"))
    expect(date("2026-11-22")).toEqual(Either.right("2026-11-22"))
    expect(date("2026-11-23")).toEqual(Either.left("VerificationDate 2026-11-23 is in the future"))
    expect(Either.isLeft(date("31/02/2026"))).toBe(true)
    expect(Either.isLeft(date("04/06/26"))).toBe(true)
  })
})

describe("analysing an import row", () => {
  it("makes a complete row the supplier and CIS subcontractor it would become, values normalised", () => {
    expect(
      analyse({
        Name: "  John Smith Groundworks ",
        TradingName: "Smith Groundworks",
        Email: "John@Smith.Example",
        Type: "sole trader",
        Title: "Mr",
        FirstName: "John",
        LastName: "Smith",
        UTR: "2234 567 890",
        NINumber: "ab 12 34 56 c",
        VATRegistered: "Yes",
        VATNumber: "GB123456789",
        VATRate: "Reverse Charge",
        VerificationNumber: "V1234567890",
        VerificationDate: "06/04/2026",
        TaxStatus: "net"
      })
    ).toEqual({
      rowId: 7,
      subcontractor: {
        name: "John Smith Groundworks",
        email: "john@smith.example",
        externalId: null,
        isCustomer: false,
        isSupplier: true,
        isCisSubcontractor: true,
        vatRegistered: true,
        vatNumber: "GB123456789",
        lastSdcDate: null,
        cisDetails: {
          type: "SoleTrader",
          title: "Mr",
          firstName: "John",
          secondName: null,
          lastName: "Smith",
          tradingName: "Smith Groundworks",
          utr: "2234567890",
          niNumber: "AB123456C",
          companyNumber: null,
          partnerUtr: null
        },
        supplierSettings: { defaultVatRate: "ReverseCharge", paymentTermsDays: null }
      },
      verification: { verificationNumber: "V1234567890", verificationDate: "2026-04-06", taxTreatment: "Net" },
      skipReason: null,
      duplicateOf: null
    })
  })

  it("defaults the type to SoleTrader and the VAT rate to what the VAT-registered flag implies", () => {
    const plain = analyse(soleTrader)
    expect(plain.subcontractor?.cisDetails.type).toBe("SoleTrader")
    expect(plain.subcontractor?.vatRegistered).toBe(false)
    expect(plain.subcontractor?.supplierSettings.defaultVatRate).toBe("NoVat")
    expect(plain.verification).toBeNull()
    expect(analyse({ ...soleTrader, VATRegistered: "y" }).subcontractor?.supplierSettings.defaultVatRate).toBe(
      "Standard"
    )
  })

  it("allows missing columns: a file of names and company numbers imports companies", () => {
    const columns = matchColumns(["Company", "Name", "Type", "TradingName", "Company No"])
    const analysed = analyseImportRow(1, ["x", "Acme Ltd", "Company", "Acme Ltd", "1234567"], columns, "2026-11-22")
    expect(analysed.skipReason).toBeNull()
    expect(analysed.subcontractor?.cisDetails).toMatchObject({ type: "Company", companyNumber: "01234567" })
    // A short row (fewer cells than the header) reads its missing cells as blank.
    expect(analyseImportRow(2, ["x", "Short Row"], columns, "2026-11-22").skipReason).toBe(
      "The CIS details a SoleTrader needs are missing: FirstName; LastName; UTR or NINumber."
    )
  })

  it("gives the reason for each kind of skipped row", () => {
    expect(skipReason({ ...soleTrader, Name: " " })).toBe("The row has no name.")
    expect(skipReason({ ...soleTrader, Name: "x".repeat(201) })).toBe("Name is longer than 200 characters.")
    expect(skipReason({ ...soleTrader, Type: "Corporation" })).toBe(
      'Type "Corporation" is not SoleTrader, Partnership, Company or Trust.'
    )
    expect(skipReason({ ...soleTrader, UTR: "1234567890" })).toBe(
      'UTR "1234567890": must be a 10-digit UTR with a valid check digit, for example 2234567890.'
    )
    expect(skipReason({ ...soleTrader, NINumber: "QQ123456Z" })).toMatch(
      /^NINumber "QQ123456Z": must be a National Insurance number/
    )
    expect(skipReason({ Name: "Bad CRN", Type: "Company", TradingName: "Bad CRN Ltd", CompanyNumber: "ABC" })).toMatch(
      /^CompanyNumber "ABC": must be a Companies House number/
    )
    expect(skipReason({ ...soleTrader, VATRate: "Luxury" })).toBe(
      'VATRate "Luxury" is not a VAT rate: Standard, Reduced, Zero, Exempt, NoVat or ReverseCharge.'
    )
    expect(skipReason({ ...soleTrader, VATRegistered: "maybe" })).toBe(
      'VATRegistered "maybe" is not yes or no (true/false, yes/no, y/n or 1/0).'
    )
    expect(skipReason({ ...soleTrader, Email: "not-an-email" })).toBe('Email "not-an-email" is not an email address.')
    expect(skipReason({ ...soleTrader, VATNumber: "GB".padEnd(21, "1") })).toBe(
      "VATNumber: a VAT number has at most 20 characters."
    )
    const verified = {
      ...soleTrader,
      VerificationNumber: "V1234567890",
      VerificationDate: "2026-04-01",
      TaxStatus: "Net"
    }
    expect(skipReason(verified)).toBeNull()
    expect(skipReason({ ...verified, VerificationNumber: "X123" })).toMatch(
      /^VerificationNumber "X123" is not a verification number/
    )
    expect(skipReason({ ...verified, VerificationDate: "31/02/2026" })).toBe(
      'VerificationDate "31/02/2026" is not a date: write it as YYYY-MM-DD or DD/MM/YYYY.'
    )
    expect(skipReason({ ...verified, TaxStatus: "Partial" })).toBe(
      'TaxStatus "Partial" is not a tax status: Gross, Net or Unmatched (or gross, net, higher, 0, 20, 30).'
    )
    expect(skipReason({ ...verified, VerificationDate: "", TaxStatus: "" })).toBe(
      "A verification needs VerificationNumber, VerificationDate and TaxStatus: VerificationDate and TaxStatus are blank."
    )
  })

  it("skips a row without the CIS details its type needs", () => {
    expect(skipReason({ Name: "Solo", LastName: "Solo" })).toBe(
      "The CIS details a SoleTrader needs are missing: FirstName; UTR or NINumber."
    )
    expect(skipReason({ Name: "Co", Type: "Company" })).toBe(
      "The CIS details a Company needs are missing: TradingName; UTR or CompanyNumber."
    )
    expect(skipReason({ Name: "P", Type: "Partnership", TradingName: "P & Co" })).toBe(
      "The CIS details a Partnership needs are missing: UTR; FirstName; LastName; PartnerUTR or NINumber."
    )
    expect(skipReason({ Name: "T", Type: "trust", UTR: "2234567890" })).toBe(
      "The CIS details a Trust needs are missing: TradingName."
    )
    expect(skipReason({ Name: "Nino Only", FirstName: "Nino", LastName: "Only", NINumber: "AB123456C" })).toBeNull()
  })

  it("reads a partnership's nominated partner's UTR from PartnerUTR, checked like a UTR", () => {
    const partnership = {
      Name: "Stone & Stone",
      Type: "Partnership",
      TradingName: "Stone & Stone",
      UTR: "4345678912",
      FirstName: "Kim",
      LastName: "Stone"
    }
    const analysed = analyse({ ...partnership, PartnerUTR: "K2234 567 890" })
    expect(analysed.skipReason).toBeNull()
    expect(analysed.subcontractor?.cisDetails).toMatchObject({ utr: "4345678912", partnerUtr: "2234567890" })
    expect(skipReason({ ...partnership, PartnerUTR: "2234567891" })).toBe(
      'PartnerUTR "2234567891": must be a 10-digit UTR with a valid check digit, for example 2234567890.'
    )
    expect(skipReason({ ...partnership, NINumber: "AB123456C" })).toBeNull()
    expect(matchColumns(["Nominated Partner UTR"])).toEqual({ PartnerUTR: 0 })
  })

  it("skips a row whose names HMRC's forms cannot take, with HMRC's rule, and takes what fits once in HMRC's form", () => {
    expect(skipReason({ ...soleTrader, LastName: "C".repeat(36) })).toBe(
      `LastName "${"C".repeat(36)}": HMRC takes a surname of 1–35 letters (A–Z), digits, spaces and , . ( ) / & - '.`
    )
    expect(skipReason({ ...soleTrader, FirstName: "Jo2" })).toMatch(/^FirstName "Jo2": HMRC takes a forename/)
    expect(skipReason({ ...soleTrader, TradingName: "A | B" })).toMatch(/cannot take "\|"/)
    expect(
      skipReason({ ...soleTrader, Title: "Professor", FirstName: "Mary Ann", LastName: "O’Brien", TradingName: "Café" })
    ).toBeNull()
  })

  it("names every problem of a row in one sentence", () => {
    expect(skipReason({ Name: "", Type: "Corp", VATRate: "Luxury" })).toBe(
      'The row has no name; Type "Corp" is not SoleTrader, Partnership, Company or Trust; VATRate "Luxury" is not a VAT rate: Standard, Reduced, Zero, Exempt, NoVat or ReverseCharge.'
    )
  })
})
