/** The template's columns, in its order. */
export const importColumns = [
  "Name",
  "TradingName",
  "Email",
  "Type",
  "Title",
  "FirstName",
  "SecondName",
  "LastName",
  "UTR",
  "NINumber",
  "CompanyNumber",
  "VATRegistered",
  "VATNumber",
  "VATRate",
  "VerificationNumber",
  "VerificationDate",
  "TaxStatus",
  "PartnerUTR"
] as const
export type ImportColumn = (typeof importColumns)[number]

/**
 * A header or value as it is matched: lower case, accents dropped, and nothing but letters and
 * digits (so `first name` = `FIRST_NAME` = `First-Name` = `FirstName`).
 */
export const looseKey = (value: string): string =>
  value
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")

// Other spellings seen in accounting and payroll exports, as loose keys.
const otherNames: Readonly<Record<ImportColumn, ReadonlyArray<string>>> = {
  Name: ["contactname", "displayname", "subcontractorname"],
  TradingName: ["businessname", "registeredname"],
  Email: ["emailaddress"],
  Type: ["cistype", "subcontractortype", "businesstype"],
  Title: [],
  FirstName: ["forename", "givenname"],
  SecondName: ["middlename", "secondforename"],
  LastName: ["surname", "familyname"],
  UTR: ["uniquetaxpayerreference"],
  NINumber: ["nino", "nationalinsurancenumber"],
  CompanyNumber: ["crn", "companyregistrationnumber", "companyno"],
  VATRegistered: ["isvatregistered", "vatreg"],
  VATNumber: ["vatregistrationnumber", "vatno"],
  VATRate: ["defaultvatrate"],
  VerificationNumber: ["verificationreference", "verificationref"],
  VerificationDate: ["verifiedon", "dateverified"],
  TaxStatus: ["taxtreatment", "cisstatus"],
  PartnerUTR: ["nominatedpartnerutr", "partnerutr"]
}

const columnByKey: ReadonlyMap<string, ImportColumn> = new Map(
  importColumns.flatMap((column) => [column, ...otherNames[column]].map((name) => [looseKey(name), column] as const))
)

/** Where each template column is in a file: its cell index. Columns the file lacks are absent. */
export type ImportColumnIndexes = Readonly<Partial<Record<ImportColumn, number>>>

/** Finds the template's columns in a header row; when two headers name one column, the first counts. */
export const matchColumns = (header: ReadonlyArray<string>): ImportColumnIndexes => {
  const indexes: Partial<Record<ImportColumn, number>> = {}
  header.forEach((name, index) => {
    const column = columnByKey.get(looseKey(name))
    if (column !== undefined && indexes[column] === undefined) indexes[column] = index
  })
  return indexes
}
