import { utrCheckDigit } from "@cisbook/core/cis/Utr"
import { importColumns } from "@cisbook/core/contacts/ImportColumns"
import { fileURLToPath } from "node:url"

/** The path of a contact import file under `fixtures/contact-import`. */
export const importFixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/contact-import/${name}`, import.meta.url))

const firstNames = ["John", "Mary", "Aisha", "Tomasz", "Siobhan", "Rajesh", "Gareth", "Chloe", "Kwame", "Fiona"]
const lastNames = ["Smith", "Jones", "Patel", "Nowak", "Murphy", "Okafor", "Evans", "Taylor", "Khan", "Walsh"]
const trades = ["Groundworks", "Roofing", "Plastering", "Joinery", "Electrical", "Plumbing", "Scaffolding"]

/** A valid UTR for each `n` (distinct for n below 900 million). */
export const utrFor = (n: number): string => {
  const nine = String(100_000_000 + n)
  return `${utrCheckDigit(nine)}${nine}`
}

/**
 * A template CSV of `rows` importable sole traders, as a spreadsheet would save it (CRLF):
 * names that share code bases, every third row with a manual verification.
 */
export const largeImportCsv = (rows: number): string => {
  const lines = [importColumns.join(",")]
  for (let i = 0; i < rows; i++) {
    const first = firstNames[i % firstNames.length]!
    const last = lastNames[Math.floor(i / firstNames.length) % lastNames.length]!
    const trade = trades[i % trades.length]!
    const verified = i % 3 === 0
    lines.push(
      [
        `${first} ${last} ${trade} ${i + 1}`,
        `${last} ${trade}`,
        `${first.toLowerCase()}.${i + 1}@example.com`,
        "SoleTrader",
        "",
        first,
        "",
        last,
        utrFor(i),
        "",
        "",
        i % 2 === 0 ? "yes" : "no",
        "",
        "",
        verified ? `V${String(1_000_000_000 + i)}` : "",
        verified ? "01/04/2026" : "",
        verified ? "Net" : ""
      ].join(",")
    )
  }
  return `${lines.join("\r\n")}\r\n`
}
