/**
 * The multipart form the contact import endpoints take: the CSV `file` and, to import, the
 * `selections` (the data rows to import, by number).
 *
 * ```ts
 * const rows = yield* cisbook.contactImport.analyzeContactImport({ path: { tenant }, payload: contactImportForm(csv) })
 * const importable = rows.filter((row) => row.skipReason === null).map((row) => row.rowId)
 * yield* cisbook.contactImport.importContacts({ path: { tenant }, payload: contactImportForm(csv, { rowIds: importable }) })
 * ```
 * @since 0.1.0
 */
export const contactImportForm = (
  file: Blob | Uint8Array | string,
  options: { readonly fileName?: string; readonly rowIds?: Iterable<number> } = {}
): FormData => {
  const form = new FormData()
  const blob =
    file instanceof Blob
      ? file
      : new Blob([typeof file === "string" ? file : new Uint8Array(file)], { type: "text/csv" })
  form.append("file", blob, options.fileName ?? "contacts.csv")
  if (options.rowIds !== undefined) {
    form.append("selections", JSON.stringify([...options.rowIds].map((rowId) => ({ rowId }))))
  }
  return form
}
