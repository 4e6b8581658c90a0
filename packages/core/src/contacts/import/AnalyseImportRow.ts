import { Either, ParseResult, Schema } from "effect"
import { CisDetails, type CisType, missingForType } from "../../cis/CisDetails.js"
import { hmrcNameProblems } from "../../cis/HmrcNames.js"
import { validCisDetails } from "../../cis/ValidCisDetails.js"
import { EmailAddress } from "../../Email.js"
import { defaultSupplierSettings } from "../Contact.js"
import { VatNumber } from "../ContactInput.js"
import type { ImportColumn, ImportColumnIndexes } from "../ImportColumns.js"
import type { ContactImportRow, ManualVerification } from "./ContactImportRow.js"
import {
  type CellValue,
  readCisType,
  readFlag,
  readTaxStatus,
  readVatRate,
  readVerificationDate,
  readVerificationNumber
} from "./ImportValues.js"

const MAX_NAME_LENGTH = 200

/**
 * The analyser's version, kept with every analysis (ImportAnalysisRepo). Raise it whenever what
 * the analysis of a row says may change: an analysis kept by another version is not reused.
 */
export const IMPORT_ANALYSER_VERSION = 1

const decodeCisDetails = Schema.decodeUnknownEither(CisDetails, { errors: "all" })
const decodeEmail = Schema.decodeUnknownEither(EmailAddress)
const decodeVatNumber = Schema.decodeUnknownEither(VatNumber)

const columnOfMember: Readonly<Record<string, ImportColumn>> = {
  firstName: "FirstName",
  secondName: "SecondName",
  lastName: "LastName",
  tradingName: "TradingName",
  utr: "UTR",
  niNumber: "NINumber",
  companyNumber: "CompanyNumber",
  partnerUtr: "PartnerUTR"
}

/** "utr or niNumber" → "UTR or NINumber": what the type needs, in the file's words. */
const inColumns = (members: string) => members.replace(/[A-Za-z]+/g, (word) => columnOfMember[word] ?? word)

const lowerFirst = (message: string) => message.charAt(0).toLowerCase() + message.slice(1)

const firstMessage = (error: ParseResult.ParseError) =>
  lowerFirst(ParseResult.ArrayFormatter.formatErrorSync(error)[0]?.message ?? "is not valid")

/** The name cells of a row whose details did not decode: a blank one is absent. */
const blankNames = (identity: Record<"title" | "firstName" | "secondName" | "lastName" | "tradingName", string>) => {
  const name = (cell: string) => (cell === "" ? null : cell)
  return {
    title: name(identity.title),
    firstName: name(identity.firstName),
    secondName: name(identity.secondName),
    lastName: name(identity.lastName),
    tradingName: name(identity.tradingName)
  }
}

/**
 * Reads one data row of an import file: the subcontractor it would become, or every reason it
 * cannot be imported. `latestVerificationDate` (YYYY-MM-DD) is the last date a verification can
 * carry.
 */
export const analyseImportRow = (
  rowId: number,
  cells: ReadonlyArray<string>,
  columns: ImportColumnIndexes,
  latestVerificationDate: string
): ContactImportRow => {
  const cell = (column: ImportColumn) => {
    const index = columns[column]
    return index === undefined ? "" : (cells[index] ?? "").trim()
  }
  const problems: Array<string> = []
  const read = <A>(value: CellValue<A>): A | null =>
    Either.match(value, {
      onLeft: (problem) => {
        problems.push(problem)
        return null
      },
      onRight: (a) => a
    })

  const name = cell("Name")
  if (name === "") problems.push("the row has no name")
  else if (name.length > MAX_NAME_LENGTH) problems.push(`Name is longer than ${MAX_NAME_LENGTH} characters`)

  const emailCell = cell("Email")
  const email = emailCell === "" ? null : Either.getOrNull(decodeEmail(emailCell))
  if (emailCell !== "" && email === null) problems.push(`Email "${emailCell}" is not an email address`)

  const vatNumberCell = cell("VATNumber")
  const vatNumber = Either.match(decodeVatNumber(vatNumberCell), {
    onLeft: (error) => {
      problems.push(`VATNumber: ${firstMessage(error)}`)
      return null
    },
    onRight: (value) => (value === "" ? null : value)
  })

  const typeCell = cell("Type")
  const type: CisType | null = typeCell === "" ? "SoleTrader" : read(readCisType(typeCell))
  const vatRegistered = read(readFlag("VATRegistered")(cell("VATRegistered"))) ?? false
  const vatRate = read(readVatRate(cell("VATRate")))

  const identity = {
    type: type ?? "SoleTrader",
    title: cell("Title"),
    firstName: cell("FirstName"),
    secondName: cell("SecondName"),
    lastName: cell("LastName"),
    tradingName: cell("TradingName"),
    utr: cell("UTR"),
    niNumber: cell("NINumber"),
    companyNumber: cell("CompanyNumber"),
    partnerUtr: cell("PartnerUTR")
  }
  const cisDetails =
    validCisDetails(identity) ??
    Either.match(decodeCisDetails(identity), {
      onLeft: (error) => {
        for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
          const member = String(issue.path[0] ?? "")
          const column = columnOfMember[member] ?? member
          const value = identity[member as keyof typeof identity] ?? ""
          problems.push(`${column} "${value}": ${lowerFirst(issue.message)}`)
        }
        return null
      },
      onRight: (details) => ({ ...details })
    })
  // A name HMRC's forms can never take would fail every verification and return.
  for (const [member, rule] of Object.entries(hmrcNameProblems(cisDetails ?? blankNames(identity)))) {
    const column = columnOfMember[member] ?? member
    problems.push(`${column} "${identity[member as keyof typeof identity]}": ${rule}`)
  }
  if (type !== null) {
    const missing = missingForType({ ...identity, type }).map(inColumns)
    if (missing.length > 0) problems.push(`the CIS details a ${type} needs are missing: ${missing.join("; ")}`)
  }

  const verification = readVerification(cell, read, latestVerificationDate, problems)

  if (problems.length > 0 || cisDetails === null) {
    const sentence = problems.join("; ")
    return {
      rowId,
      subcontractor: null,
      verification: null,
      skipReason: `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`,
      duplicateOf: null
    }
  }
  return {
    rowId,
    subcontractor: {
      name,
      email,
      externalId: null,
      isCustomer: false,
      isSupplier: true,
      isCisSubcontractor: true,
      vatRegistered,
      vatNumber,
      lastSdcDate: null,
      cisDetails,
      supplierSettings: {
        defaultVatRate: vatRate ?? defaultSupplierSettings(vatRegistered).defaultVatRate,
        paymentTermsDays: null
      }
    },
    verification,
    skipReason: null,
    duplicateOf: null
  }
}

const verificationColumns = ["VerificationNumber", "VerificationDate", "TaxStatus"] as const

/** A verification needs all three of its cells; an invalid one has been reported already. */
const readVerification = (
  cell: (column: ImportColumn) => string,
  read: <A>(value: CellValue<A>) => A | null,
  latestVerificationDate: string,
  problems: Array<string>
): ManualVerification | null => {
  const verificationNumber = read(readVerificationNumber(cell("VerificationNumber")))
  const verificationDate = read(readVerificationDate(latestVerificationDate)(cell("VerificationDate")))
  const taxTreatment = read(readTaxStatus(cell("TaxStatus")))
  const blank = verificationColumns.filter((column) => cell(column) === "")
  if (blank.length === verificationColumns.length) return null
  if (blank.length > 0) {
    problems.push(
      `a verification needs VerificationNumber, VerificationDate and TaxStatus: ${blank.join(" and ")} ${blank.length === 1 ? "is" : "are"} blank`
    )
  }
  return verificationNumber !== null && verificationDate !== null && taxTreatment !== null
    ? { verificationNumber, verificationDate, taxTreatment }
    : null
}
