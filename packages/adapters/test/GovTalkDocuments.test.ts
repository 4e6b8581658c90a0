import { CisDetails } from "@cisbook/core/cis/CisDetails"
import { ContactId, MonthlyReturnId } from "@cisbook/core/Ids"
import { ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { submittedDeclarations } from "@cisbook/testkit/DeclarationsFixtures"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import { XMLParser } from "fast-xml-parser"
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { type Cis300Return, cis300Return, type PayeScheme } from "../src/taxauthority/cis300/Cis300Return.js"
import { cis300Problems } from "../src/taxauthority/cis300/Cis300Rules.js"
import { cis300Envelope } from "../src/taxauthority/govtalk/Cis300Envelope.js"
import { cisVerifyEnvelope } from "../src/taxauthority/govtalk/CisVerifyEnvelope.js"
import { govTalkMessage, type GovTalkSender } from "../src/taxauthority/govtalk/GovTalkMessage.js"
import { hmrcSchemas } from "../src/taxauthority/govtalk/HmrcSchemas.js"

const details = Schema.decodeSync(CisDetails)

const scheme: PayeScheme = {
  taxOfficeNumber: "123",
  taxOfficeReference: "AB456",
  accountsOfficeReference: "123PW12345678"
}
const sender: GovTalkSender = {
  senderId: "CISBOOK1",
  password: Redacted.make("secret & <safe>"),
  gatewayTest: true,
  vendorId: "8472",
  product: "cisbook",
  version: "0.1.0"
}

const line = (code: string, fields: Partial<ReturnLine> & { cisDetails: CisDetails }) =>
  new ReturnLine({
    contactId: ContactId.make("00000000-0000-4000-8000-000000000001"),
    contactCode: code,
    name: code,
    utr: fields.cisDetails.utr,
    verificationNumber: "V1234567890",
    taxTreatment: "Net",
    grossAmount: 250_075,
    materials: 40_000,
    deducted: 42_015,
    ...fields
  })

const thirtyFive = "Abcdefghij-Klmnopqrst'Uvwxyzabcdefg"
const fiftySix = `O'Brien & Daughters (Roofing) Ltd ${"x".repeat(22)}`

/** June 2026: names with apostrophes, ampersands and HMRC's longest lengths; every treatment. */
const june = {
  id: MonthlyReturnId.make("0197a3c4-5e6f-7a8b-9cad-0e1f2a3b4c5d"),
  periodEnd: "2026-06-05",
  declarations: submittedDeclarations(),
  contractor: { name: "Lovelace Builders Ltd", utr: "8456789123" },
  lines: [
    line("OBRIEN", {
      cisDetails: details({
        type: "SoleTrader",
        title: "Mrs",
        firstName: "Siobhan",
        secondName: thirtyFive,
        lastName: "O'Brien-Smith & Co",
        utr: "2234567890",
        niNumber: "AB123456C"
      })
    }),
    line("LONGEST", {
      cisDetails: details({ type: "SoleTrader", firstName: thirtyFive, lastName: thirtyFive, utr: "2234567890" })
    }),
    line("BRICKS", {
      taxTreatment: "Gross",
      deducted: 0,
      cisDetails: details({ type: "Company", tradingName: fiftySix, utr: "1097172564", companyNumber: "SC123456" })
    }),
    line("STONE-K", {
      taxTreatment: "Unmatched",
      verificationNumber: "V1234567892/A",
      grossAmount: 50_000,
      materials: 0,
      deducted: 15_000,
      cisDetails: details({ type: "SoleTrader", firstName: "Kim", lastName: "Stone", utr: "4345678912" })
    })
  ]
} as unknown as Parameters<typeof cis300Return>[0]

const submission = (r: Cis300Return) =>
  govTalkMessage(
    {
      function: "submit",
      class: "IR-CIS-CIS300MR",
      transactionId: r.transactionId,
      keys: r.scheme,
      irEnvelope: cis300Envelope(r)
    },
    sender
  )

const irEnvelopeOf = (message: string) => /<IRenvelope[\s\S]*<\/IRenvelope>/.exec(message)![0]

/** Validates a body against HMRC's own schema (vendored); the errors, empty when valid. */
const schemaErrors = async (schema: "CISreturn.xsd" | "CISrequest.xsd", irEnvelope: string) => {
  const errors = await Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(hmrcSchemas, (validate) =>
        validate(schema === "CISreturn.xsd" ? "CISreturn" : "CISverification", irEnvelope)
      )
    )
  )
  return errors.map((e) => e.message)
}

/**
 * The IRmark as computed without the code under test: the Body cut out of the message text,
 * its IRmark element cut out, the envelope's namespace declared on it, canonicalised by libxml2's
 * `xmllint --c14n` (Debian's libxml2-utils), SHA-1, base64.
 */
const independentIrMark = (message: string) => {
  const body = /<Body>[\s\S]*<\/Body>/
    .exec(message)![0]
    .replace(/<IRmark Type="generic">[^<]*<\/IRmark>/, "")
    .replace("<Body>", '<Body xmlns="http://www.govtalk.gov.uk/CM/envelope">')
  const canonical = execFileSync("xmllint", ["--c14n", "-"], { input: body })
  return createHash("sha1").update(canonical).digest("base64")
}

const carriedIrMark = (message: string) => /<IRmark Type="generic">([^<]*)<\/IRmark>/.exec(message)![1]

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false })

describe("the GovTalk submission of a CIS300", () => {
  const document = cis300Return(june, scheme)
  const message = submission(document)

  it("passes HMRC's rules and validates against HMRC's CISreturn schema", async () => {
    expect(cis300Problems(document)).toEqual([])
    expect(await schemaErrors("CISreturn.xsd", irEnvelopeOf(message))).toEqual([])
  })

  it("carries a correct IRmark, computed independently by libxml2's C14N", () => {
    expect(carriedIrMark(message)).toMatch(/^[A-Za-z0-9+/]{27}=$/)
    expect(carriedIrMark(message)).toBe(independentIrMark(message))
  })

  it("carries the envelope: class, qualifier, function, TransactionID, credentials, keys and the channel", () => {
    const parsed = parser.parse(message).GovTalkMessage
    expect(parsed["@xmlns"]).toBe("http://www.govtalk.gov.uk/CM/envelope")
    expect(parsed.EnvelopeVersion).toBe("2.0")
    expect(parsed.Header.MessageDetails).toMatchObject({
      Class: "IR-CIS-CIS300MR",
      Qualifier: "request",
      Function: "submit",
      TransactionID: "0197A3C45E6F7A8B9CAD0E1F2A3B4C5D",
      Transformation: "XML",
      GatewayTest: "1"
    })
    expect(parsed.Header.SenderDetails.IDAuthentication).toEqual({
      SenderID: "CISBOOK1",
      Authentication: { Method: "clear", Role: "principal", Value: "secret & <safe>" }
    })
    const keys = [
      { "@Type": "TaxOfficeNumber", "#text": "123" },
      { "@Type": "TaxOfficeReference", "#text": "AB456" }
    ]
    expect(parsed.GovTalkDetails.Keys.Key).toEqual(keys)
    expect(parsed.GovTalkDetails.ChannelRouting.Channel).toEqual({ URI: "8472", Product: "cisbook", Version: "0.1.0" })
    const header = parsed.Body.IRenvelope.IRheader
    expect(header.Keys.Key).toEqual(keys)
    expect(header.Manifest.Contains.Reference).toEqual({
      Namespace: "http://www.govtalk.gov.uk/taxation/CISreturn",
      SchemaVersion: "2005-v1.1",
      TopElementName: "CISreturn"
    })
    expect(header.IRmark["@Type"]).toBe("generic")
  })

  it("writes names with apostrophes and ampersands, and 35- and 56-character names, as they are", () => {
    const subcontractors = parser.parse(message).GovTalkMessage.Body.IRenvelope.CISreturn.Subcontractor
    expect(subcontractors[0].Name).toEqual({ Ttl: "Mrs", Fore: ["Siobhan", thirtyFive], Sur: "O'Brien-Smith & Co" })
    expect(subcontractors[1].Name).toEqual({ Fore: thirtyFive, Sur: thirtyFive })
    expect(subcontractors[2].TradingName).toBe(fiftySix)
    expect(fiftySix).toHaveLength(56)
    // Unmatched: the flag, and the number as HMRC writes it (no slash); money in HMRC's forms.
    expect(subcontractors[3]).toMatchObject({
      UnmatchedRate: "yes",
      VerificationNumber: "V1234567892A",
      TotalPayments: "500.00",
      CostOfMaterials: "0.00",
      TotalDeducted: "150.00"
    })
    expect(subcontractors[0]).toMatchObject({
      TotalPayments: "2500.00",
      CostOfMaterials: "400.00",
      TotalDeducted: "420.15"
    })
  })

  it("files a partnership by the firm's trading name and UTR, with the partner's NINO, and names in HMRC's forms", async () => {
    const partnership = details({
      type: "Partnership",
      tradingName: "Stone & Stone – Café",
      utr: "4345678912",
      firstName: "Kim",
      lastName: "Stone",
      partnerUtr: "2234567890",
      niNumber: "AB123456C"
    })
    const maryAnn = details({
      type: "SoleTrader",
      title: "Dr.",
      firstName: "Mary Ann",
      lastName: "O’Brien",
      utr: "2234567890"
    })
    const document = cis300Return(
      { ...june, lines: [line("STONE", { cisDetails: partnership }), line("MARY", { cisDetails: maryAnn })] },
      scheme
    )
    const message = submission(document)
    expect(await schemaErrors("CISreturn.xsd", irEnvelopeOf(message))).toEqual([])
    const [firm, mary] = parser.parse(message).GovTalkMessage.Body.IRenvelope.CISreturn.Subcontractor
    expect(firm).toMatchObject({ TradingName: "Stone & Stone - Cafe", UTR: "4345678912", NINO: "AB123456C" })
    expect(firm.Name).toBeUndefined()
    expect(mary.Name).toEqual({ Ttl: "Dr", Fore: ["Mary", "Ann"], Sur: "O'Brien" })
  })

  it("carries the declarations the contractor made, as it made them", () => {
    const declared = cis300Return(june, scheme).declarations
    expect(declared).toEqual({ employmentStatus: true, verification: true, informationCorrect: true })
    const undeclared = cis300Return(
      { ...june, declarations: { employmentStatus: false, subcontractorsVerified: true, informationCorrect: true } },
      scheme
    )
    expect(undeclared.declarations.employmentStatus).toBe(false)
    const cisReturn = parser.parse(submission(undeclared)).GovTalkMessage.Body.IRenvelope.CISreturn
    expect(cisReturn.Declarations).toEqual({ EmploymentStatus: "no", Verification: "yes", InformationCorrect: "yes" })
    // The service never files such a return (core refuses it): HMRC's rules refuse it too.
    expect(cis300Problems(undeclared)).toContain("The employment status and verification declarations must be made.")
  })

  it("a nil return says NilReturn (and Inactivity), lists nobody, declares only what HMRC asks, and validates", async () => {
    const nil = submission({ ...cis300Return({ ...june, lines: [] }, scheme), nilReturn: true, inactive: true })
    const cisReturn = parser.parse(nil).GovTalkMessage.Body.IRenvelope.CISreturn
    expect(cisReturn.NilReturn).toBe("yes")
    expect(cisReturn.Subcontractor).toBeUndefined()
    expect(cisReturn.Declarations).toEqual({ InformationCorrect: "yes", Inactivity: "yes" })
    expect(await schemaErrors("CISreturn.xsd", irEnvelopeOf(nil))).toEqual([])
    expect(carriedIrMark(nil)).toBe(independentIrMark(nil))
  })
})

describe("the GovTalk submission of a verification", () => {
  const verification = (subcontractor: CisDetails) =>
    govTalkMessage(
      {
        function: "submit",
        class: "IR-CIS-VERIFY",
        transactionId: "",
        keys: scheme,
        irEnvelope: cisVerifyEnvelope({ contractorUtr: "8456789123", scheme, subcontractor, periodEnd: "2026-07-05" })
      },
      sender
    )

  const kinds = {
    "a sole trader": details({
      type: "SoleTrader",
      title: "Mr",
      firstName: "Jo",
      lastName: "O'Neill & Sons",
      utr: "2234567890",
      niNumber: "AB123456C"
    }),
    "a company": details({ type: "Company", tradingName: fiftySix, utr: "1097172564", companyNumber: "SC123456" }),
    "a partnership": details({
      type: "Partnership",
      tradingName: "Stone & Stone",
      utr: "4345678912",
      firstName: "Kim",
      lastName: "Stone",
      partnerUtr: "2234567890",
      niNumber: "AB123456C"
    }),
    "a trust": details({ type: "Trust", tradingName: "The Mason Trust", utr: "4345678912" })
  }

  for (const [kind, subcontractor] of Object.entries(kinds)) {
    it(`of ${kind} validates against HMRC's CISrequest schema and carries a correct IRmark`, async () => {
      const message = verification(subcontractor)
      expect(await schemaErrors("CISrequest.xsd", irEnvelopeOf(message))).toEqual([])
      expect(carriedIrMark(message)).toBe(independentIrMark(message))
      const parsed = parser.parse(message).GovTalkMessage
      expect(parsed.Header.MessageDetails).toMatchObject({
        Class: "IR-CIS-VERIFY",
        Qualifier: "request",
        Function: "submit"
      })
      expect(parsed.Body.IRenvelope.CISrequest.Subcontractor.Action).toBe("verify")
      expect(parsed.Body.IRenvelope.CISrequest.Contractor).toEqual({ UTR: "8456789123", AOref: "123PW12345678" })
    })
  }

  it("of a partnership asks through its nominated partner, as HMRC's own builder does", () => {
    const parsed = parser.parse(verification(kinds["a partnership"])).GovTalkMessage
    expect(parsed.Body.IRenvelope.CISrequest.Subcontractor).toEqual({
      Action: "verify",
      Type: "partnership",
      Name: { Fore: "Kim", Sur: "Stone" },
      UTR: "2234567890",
      NINO: "AB123456C",
      Partnership: { Name: "Stone & Stone", UTR: "4345678912" }
    })
  })

  it("of a partnership whose partner has no UTR asks by the partner's NINO", async () => {
    const message = verification(details({ ...kinds["a partnership"], partnerUtr: null }))
    expect(await schemaErrors("CISrequest.xsd", irEnvelopeOf(message))).toEqual([])
    const subcontractor = parser.parse(message).GovTalkMessage.Body.IRenvelope.CISrequest.Subcontractor
    expect(subcontractor.UTR).toBeUndefined()
    expect(subcontractor.NINO).toBe("AB123456C")
    expect(subcontractor.Partnership).toEqual({ Name: "Stone & Stone", UTR: "4345678912" })
  })

  it("writes names in HMRC's forms: two forenames, ASCII punctuation, plain letters, no title HMRC does not take", async () => {
    const message = verification(
      details({
        type: "SoleTrader",
        title: "Professor",
        firstName: "Mary Ann",
        lastName: "O’Brien-Núñez",
        utr: "2234567890"
      })
    )
    expect(await schemaErrors("CISrequest.xsd", irEnvelopeOf(message))).toEqual([])
    expect(parser.parse(message).GovTalkMessage.Body.IRenvelope.CISrequest.Subcontractor.Name).toEqual({
      Fore: ["Mary", "Ann"],
      Sur: "O'Brien-Nunez"
    })
  })

  it("a poll and a delete name the correlation id and carry no body", () => {
    for (const fn of ["poll", "delete"] as const) {
      const parsed = parser.parse(
        govTalkMessage({ function: fn, class: "IR-CIS-VERIFY", correlationId: "ABC123" }, sender)
      ).GovTalkMessage
      expect(parsed.Header.MessageDetails).toMatchObject({
        Qualifier: fn === "poll" ? "poll" : "request",
        Function: fn === "poll" ? "submit" : "delete",
        CorrelationID: "ABC123"
      })
      expect(parsed.Body).toBe("")
    }
  })
})

describe("HMRC's schema, through libxml2, refuses what HMRC refuses", () => {
  const valid = irEnvelopeOf(submission(cis300Return(june, scheme)))
  const broken: ReadonlyArray<readonly [string, (xml: string) => string]> = [
    ["a 36-character forename", (x) => x.replace("<Fore>Siobhan</Fore>", `<Fore>${thirtyFive}x</Fore>`)],
    ["a forename with a digit", (x) => x.replace("<Fore>Siobhan</Fore>", "<Fore>Siobhan2</Fore>")],
    ["a 36-character surname", (x) => x.replace("<Sur>O&apos;Brien-Smith &amp; Co</Sur>", `<Sur>${thirtyFive}x</Sur>`)],
    [
      "a surname with a character HMRC refuses",
      (x) => x.replace("<Sur>O&apos;Brien-Smith &amp; Co</Sur>", "<Sur>O'Brien!</Sur>")
    ],
    ["a 57-character trading name", (x) => x.replace(/<TradingName>([^<]*)</, "<TradingName>$1x<")],
    ["a trading name starting with a space", (x) => x.replace(/<TradingName>[^<]*</, "<TradingName> Bricks<")],
    ["a 9-digit UTR", (x) => x.replace("<UTR>1097172564</UTR>", "<UTR>109717256</UTR>")],
    ["a NINO with a bad prefix", (x) => x.replace("<NINO>AB123456C</NINO>", "<NINO>DA123456C</NINO>")],
    ["a NINO with suffix E", (x) => x.replace("<NINO>AB123456C</NINO>", "<NINO>AB123456E</NINO>")],
    ["a CRN of three letters", (x) => x.replace("<CRN>SC123456</CRN>", "<CRN>SCX12345</CRN>")],
    ["an AOref without its P", (x) => x.replace("<AOref>123PW12345678</AOref>", "<AOref>123XW12345678</AOref>")],
    ["an AOref of 12 characters", (x) => x.replace("<AOref>123PW12345678</AOref>", "<AOref>123PW1234567</AOref>")],
    ["a verification number with a slash", (x) => x.replace("V1234567892A", "V1234567892/A")],
    ["a verification number with the letter I", (x) => x.replace("V1234567892A", "V1234567892I")],
    [
      "payments with pence",
      (x) => x.replace("<TotalPayments>500.00</TotalPayments>", "<TotalPayments>500.50</TotalPayments>")
    ],
    [
      "a deduction with one decimal",
      (x) => x.replace("<TotalDeducted>150.00</TotalDeducted>", "<TotalDeducted>150.0</TotalDeducted>")
    ],
    [
      "a negative deduction",
      (x) => x.replace("<TotalDeducted>150.00</TotalDeducted>", "<TotalDeducted>-150.00</TotalDeducted>")
    ],
    [
      "payments over £99,999,999",
      (x) => x.replace("<TotalPayments>500.00</TotalPayments>", "<TotalPayments>100000000.00</TotalPayments>")
    ],
    [
      "the UTR before the works reference",
      (x) =>
        x.replace(
          "<WorksRef>BRICKS</WorksRef>\n          <UTR>1097172564</UTR>",
          "<UTR>1097172564</UTR>\n          <WorksRef>BRICKS</WorksRef>"
        )
    ],
    ["no InformationCorrect", (x) => x.replace(/<InformationCorrect>yes<\/InformationCorrect>/, "")],
    [
      "a Manifest after the IRmark",
      (x) => x.replace(/(<Manifest>[\s\S]*<\/Manifest>)(\s*)(<IRmark[^>]*>[^<]*<\/IRmark>)/, "$3$2$1")
    ],
    ["no contractor UTR", (x) => x.replace("<UTR>8456789123</UTR>", "")]
  ]

  it("the valid document passes", async () => {
    expect(await schemaErrors("CISreturn.xsd", valid)).toEqual([])
  })

  for (const [what, breakIt] of broken) {
    it(`refuses ${what}`, async () => {
      const changed = breakIt(valid)
      expect(changed).not.toBe(valid)
      expect(await schemaErrors("CISreturn.xsd", changed)).not.toEqual([])
    })
  }
})
