import { importColumns } from "./ImportColumns.js"

const example: ReadonlyArray<string> = [
  "John Smith Groundworks",
  "Smith Groundworks",
  "john@smith-groundworks.example",
  "SoleTrader",
  "Mr",
  "John",
  "",
  "Smith",
  "2234567890",
  "AB123456C",
  "",
  "yes",
  "GB123456789",
  "Standard",
  "V1234567890",
  "2026-04-06",
  "Net",
  ""
]

/** The CSV offered for download: the header and one example row (RFC 4180 line ends). */
export const importTemplateCsv = `${importColumns.join(",")}\r\n${example.join(",")}\r\n`

export const importTemplateFileName = "contacts-import-template.csv"
