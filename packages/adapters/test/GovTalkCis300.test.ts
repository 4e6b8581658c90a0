import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { cis300Return } from "../src/taxauthority/cis300/Cis300Return.js"
import { cis300Problems } from "../src/taxauthority/cis300/Cis300Rules.js"
import { govTalkCis300 } from "../src/taxauthority/cis300/GovTalkCis300.js"
import { SANDBOX_PAYE_SCHEME, SANDBOX_SENDER } from "../src/taxauthority/SandboxReturnOffice.js"

const details = Schema.decodeSync(CisDetails)

/** June 2026 of Lovelace Builders Ltd: a sole trader at the standard rate, a company paid gross, and an unmatched sole trader. */
const june = {
  id: MonthlyReturnId.make("0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5d"),
  periodEnd: "2026-06-05",
  nilReturn: false,
  inactive: false,
  contractor: new ReturnContractor({ name: "Lovelace Builders Ltd", utr: "8456789123" }),
  lines: [
    new ReturnLine({
      contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
      contactCode: "SMITH-J",
      name: "Jo Smith",
      utr: "2234567890",
      verificationNumber: "V1234567890",
      taxTreatment: "Net",
      grossAmount: 250_075,
      materials: 40_000,
      deducted: 42_015,
      cisDetails: details({
        type: "SoleTrader",
        title: "Mr",
        firstName: "Jo",
        secondName: "Alan",
        lastName: "Smith",
        utr: "2234567890",
        niNumber: "AB123456C"
      })
    }),
    new ReturnLine({
      contactId: ContactId.make("00000000-0000-4000-8000-000000000002"),
      contactCode: "BRICKS",
      name: "Bricks & Mortar Ltd",
      utr: "1097172564",
      verificationNumber: "V1234567891",
      taxTreatment: "Gross",
      grossAmount: 1_200_000,
      materials: 300_000,
      deducted: 0,
      cisDetails: details({
        type: "Company",
        tradingName: "Bricks & Mortar Ltd",
        utr: "1097172564",
        companyNumber: "SC123456"
      })
    }),
    new ReturnLine({
      contactId: ContactId.make("00000000-0000-4000-8000-000000000003"),
      contactCode: "STONE-K",
      name: "Kim Stone",
      utr: "4345678912",
      verificationNumber: "V1234567892/A",
      taxTreatment: "Unmatched",
      grossAmount: 50_000,
      materials: 0,
      deducted: 15_000,
      cisDetails: details({ type: "SoleTrader", firstName: "Kim", lastName: "Stone", utr: "4345678912" })
    })
  ]
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false })

describe("the GovTalk CIS300 document of a monthly return", () => {
  const document = cis300Return(june, SANDBOX_PAYE_SCHEME)
  const xml = govTalkCis300(document, SANDBOX_SENDER)

  it("passes HMRC's rules and is well-formed XML", () => {
    expect(cis300Problems(document)).toEqual([])
    expect(XMLValidator.validate(xml)).toBe(true)
  })

  it("carries the envelope, the contractor, each subcontractor and the declarations", () => {
    const message = parser.parse(xml).GovTalkMessage
    expect(message["@xmlns"]).toBe("http://www.govtalk.gov.uk/CM/envelope")
    expect(message.Header.MessageDetails).toMatchObject({
      Class: "IR-CIS-CIS300MR",
      Qualifier: "request",
      Function: "submit",
      TransactionID: "0197A3C45E6F7A8B9CAD0E1F2A3B4C5D",
      GatewayTest: "1"
    })
    expect(message.GovTalkDetails.Keys.Key).toEqual([
      { "@Type": "TaxOfficeNumber", "#text": "123" },
      { "@Type": "TaxOfficeReference", "#text": "AB456" }
    ])
    const envelope = message.Body.IRenvelope
    expect(envelope["@xmlns"]).toBe("http://www.govtalk.gov.uk/taxation/CISreturn")
    expect(envelope.IRheader).toMatchObject({ PeriodEnd: "2026-06-05", DefaultCurrency: "GBP", Sender: "Company" })
    const cisReturn = envelope.CISreturn
    expect(cisReturn.Contractor).toEqual({ UTR: "8456789123", AOref: "123PW12345678" })
    expect(cisReturn.NilReturn).toBeUndefined()
    expect(cisReturn.Subcontractor).toEqual([
      {
        Name: { Ttl: "Mr", Fore: ["Jo", "Alan"], Sur: "Smith" },
        WorksRef: "SMITH-J",
        UTR: "2234567890",
        NINO: "AB123456C",
        // Payments and materials in whole pounds; the deduction with its pence.
        TotalPayments: "2500.00",
        CostOfMaterials: "400.00",
        TotalDeducted: "420.15"
      },
      {
        TradingName: "Bricks & Mortar Ltd",
        WorksRef: "BRICKS",
        UTR: "1097172564",
        CRN: "SC123456",
        TotalPayments: "12000.00",
        CostOfMaterials: "3000.00",
        TotalDeducted: "0.00"
      },
      {
        Name: { Fore: "Kim", Sur: "Stone" },
        WorksRef: "STONE-K",
        UnmatchedRate: "yes",
        UTR: "4345678912",
        // Only the unmatched subcontractor's verification number, as HMRC's schema writes it.
        VerificationNumber: "V1234567892A",
        TotalPayments: "500.00",
        CostOfMaterials: "0.00",
        TotalDeducted: "150.00"
      }
    ])
    expect(cisReturn.Declarations).toEqual({ EmploymentStatus: "yes", Verification: "yes", InformationCorrect: "yes" })
  })

  it("is this document", () => {
    expect(xml.slice(xml.indexOf("<Body>"))).toMatchInlineSnapshot(`
      "<Body>
          <IRenvelope xmlns="http://www.govtalk.gov.uk/taxation/CISreturn">
            <IRheader>
              <Keys>
                <Key Type="TaxOfficeNumber">123</Key>
                <Key Type="TaxOfficeReference">AB456</Key>
              </Keys>
              <PeriodEnd>2026-06-05</PeriodEnd>
              <DefaultCurrency>GBP</DefaultCurrency>
              <Sender>Company</Sender>
            </IRheader>
            <CISreturn>
              <Contractor>
                <UTR>8456789123</UTR>
                <AOref>123PW12345678</AOref>
              </Contractor>
              <Subcontractor>
                <Name>
                  <Ttl>Mr</Ttl>
                  <Fore>Jo</Fore>
                  <Fore>Alan</Fore>
                  <Sur>Smith</Sur>
                </Name>
                <WorksRef>SMITH-J</WorksRef>
                <UTR>2234567890</UTR>
                <NINO>AB123456C</NINO>
                <TotalPayments>2500.00</TotalPayments>
                <CostOfMaterials>400.00</CostOfMaterials>
                <TotalDeducted>420.15</TotalDeducted>
              </Subcontractor>
              <Subcontractor>
                <TradingName>Bricks &amp; Mortar Ltd</TradingName>
                <WorksRef>BRICKS</WorksRef>
                <UTR>1097172564</UTR>
                <CRN>SC123456</CRN>
                <TotalPayments>12000.00</TotalPayments>
                <CostOfMaterials>3000.00</CostOfMaterials>
                <TotalDeducted>0.00</TotalDeducted>
              </Subcontractor>
              <Subcontractor>
                <Name>
                  <Fore>Kim</Fore>
                  <Sur>Stone</Sur>
                </Name>
                <WorksRef>STONE-K</WorksRef>
                <UnmatchedRate>yes</UnmatchedRate>
                <UTR>4345678912</UTR>
                <VerificationNumber>V1234567892A</VerificationNumber>
                <TotalPayments>500.00</TotalPayments>
                <CostOfMaterials>0.00</CostOfMaterials>
                <TotalDeducted>150.00</TotalDeducted>
              </Subcontractor>
              <Declarations>
                <EmploymentStatus>yes</EmploymentStatus>
                <Verification>yes</Verification>
                <InformationCorrect>yes</InformationCorrect>
              </Declarations>
            </CISreturn>
          </IRenvelope>
        </Body>
      </GovTalkMessage>
      "
    `)
  })
})
