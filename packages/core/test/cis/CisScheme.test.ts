import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import {
  AccountsOfficeReference,
  accountsOfficeCheckLetter,
  CisScheme,
  EmployerReference,
  isValidAccountsOfficeReference,
  taxOfficeNumber,
  taxOfficeReference
} from "../../src/cis/CisScheme.js"
import { decode } from "./decode.js"

// HMRC's own examples (hmrc/reference-checker's tests of its ePAYE checker).
const hmrcValid = [
  "123PW12345678",
  "450PE00923437",
  "120PY19064375",
  "450PA0096437K",
  "853PW0076584X",
  "846PS00928342",
  "961PA0045782X",
  "961PF10305739",
  "123PH45678900"
]
const hmrcInvalid = [
  "",
  "1234",
  "000PL00000000",
  "120PA12697495",
  "846PT00568772",
  "820PB0091254X",
  "961PI004578OQ",
  "123PW12345678Z",
  "8465L04697138",
  "120PW003179212324",
  "120PW0024",
  "123XH4!@£900",
  "961PA1145782X",
  "961PL004578FQ"
]

describe("EmployerReference", () => {
  it("takes a 3-digit tax office number, a slash and 1–10 letters and digits, stored upper case without spaces", () => {
    expect(decode(EmployerReference)(" 123/ab45678 ")).toEqual(Either.right("123/AB45678"))
    expect(decode(EmployerReference)("123 / AB 456")).toEqual(Either.right("123/AB456"))
    expect(decode(EmployerReference)("961/Z")).toEqual(Either.right("961/Z"))
    expect(decode(EmployerReference)("001/ABCDE12345")).toEqual(Either.right("001/ABCDE12345"))
  })

  it("refuses any other shape, saying what is expected with an example", () => {
    const message =
      "Must be an employer PAYE reference: a 3-digit tax office number, a slash and up to 10 letters and digits, for example 123/AB45678"
    for (const input of [
      "",
      "123",
      "123/",
      "12/AB456",
      "1234/AB456",
      "123AB456",
      "123/AB-456",
      "123/ABCDE123456",
      "ABC/123"
    ])
      expect(decode(EmployerReference)(input)).toEqual(Either.left([message]))
  })

  it("gives GovTalk's two keys: the tax office number and the tax office reference", () => {
    const reference = Either.getOrThrow(decode(EmployerReference)("123/ab45678"))
    expect(taxOfficeNumber(reference)).toBe("123")
    expect(taxOfficeReference(reference)).toBe("AB45678")
  })
})

describe("AccountsOfficeReference", () => {
  it("accepts HMRC's valid examples and refuses its invalid ones", () => {
    for (const reference of hmrcValid)
      expect([reference, isValidAccountsOfficeReference(reference)]).toEqual([reference, true])
    for (const reference of hmrcInvalid)
      expect([reference, isValidAccountsOfficeReference(reference)]).toEqual([reference, false])
  })

  it("computes HMRC's modulus-23 check letter from the other characters", () => {
    expect(accountsOfficeCheckLetter("123PW12345678")).toBe("W")
    expect(accountsOfficeCheckLetter("450PA0096437K")).toBe("A")
    // Weighted sum 9·1 + 10·2 + 11·3 + 12·48 + 8·0 + 7·0 + 6·0 + 5·1 + 4·2 + 3·3 + 2·4 + 1·5 = 673; 673 mod 23 = 6: G.
    expect(accountsOfficeCheckLetter("123PA00012345")).toBe("G")
    expect(isValidAccountsOfficeReference("123PG00012345")).toBe(true)
    expect(isValidAccountsOfficeReference("123PA00012345")).toBe(false)
  })

  it("decodes to upper case without spaces, and says what is wrong: the shape, or the check letter", () => {
    expect(decode(AccountsOfficeReference)(" 123 pw 1234 5678 ")).toEqual(Either.right("123PW12345678"))
    expect(decode(AccountsOfficeReference)("123PW1234567")).toEqual(
      Either.left([
        "Must be a 13-character Accounts Office reference: 3 digits, P, a check letter and 8 more characters, for example 123PW12345678"
      ])
    )
    expect(decode(AccountsOfficeReference)("123PA12345678")).toEqual(
      Either.left([
        "The check letter (5th character) does not match the rest of the reference: HMRC's check gives W for these digits; copy the reference from HMRC's letter, for example 123PW12345678"
      ])
    )
    expect(Either.isLeft(decode(AccountsOfficeReference)("961PA1145782X"))).toBe(true)
  })
})

describe("CisScheme", () => {
  it("holds both references, naming each invalid member", () => {
    const scheme = decode(CisScheme)({ employerReference: "123/ab45678", accountsOfficeReference: "123pw12345678" })
    expect(Either.map(scheme, (s) => [s instanceof CisScheme, s.employerReference, s.accountsOfficeReference])).toEqual(
      Either.right([true, "123/AB45678", "123PW12345678"])
    )
    const both = decode(CisScheme)({ employerReference: "123", accountsOfficeReference: "123PA12345678" })
    expect(Either.isLeft(both) && both.left).toHaveLength(2)
  })
})
