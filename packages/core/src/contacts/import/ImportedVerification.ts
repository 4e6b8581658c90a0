import { notVerified, Verification } from "../Contact.js"
import type { ContactImportRow } from "./ContactImportRow.js"

/** What an imported contact carries to say where it came from: the file's name and the row. */
export const importNote = (fileName: string, rowId: number) => {
  const printable = [...fileName].filter((char) => char >= " " && char !== "\u007f").join("")
  const name = printable.trim().slice(0, 100)
  return `Imported from ${name === "" ? "a CSV file" : name}, row ${rowId}`
}

/**
 * An imported subcontractor's verification, its message the import note: recorded by hand when
 * the row has one (verified at midnight UTC of its date), else not verified yet. Built from values
 * the analysis checked, so not validated again.
 */
export const importedVerification = (row: ContactImportRow, note: string): Verification =>
  row.verification
    ? new Verification(
        {
          status: "Verified",
          verificationNumber: row.verification.verificationNumber,
          taxTreatment: row.verification.taxTreatment,
          verifiedAt: new Date(`${row.verification.verificationDate}T00:00:00.000Z`),
          source: "Manual",
          message: note
        },
        true
      )
    : new Verification({ ...notVerified, message: note }, true)
