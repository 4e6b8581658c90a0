/**
 * The client side of `pnpm bench import`, run in its own process so that parsing the answers does
 * not count in the server's memory: analyses the file (`analyze`) or imports every row of it
 * (`import`), and prints the request's seconds. Arguments: base URL of the tenant's import
 * endpoints, API key, CSV path, number of rows, `analyze` or `import`.
 */
import * as fs from "node:fs"

const [base, key, csvPath, rowsText, step] = process.argv.slice(2) as [string, string, string, string, string]
const rows = Number(rowsText)
const csv = new Blob([fs.readFileSync(csvPath)], { type: "text/csv" })

const form = (selections?: string) => {
  const f = new FormData()
  f.append("file", csv, "bench.csv")
  if (selections !== undefined) f.append("selections", selections)
  return f
}

const post = async (url: string, body: FormData) => {
  const response = await fetch(url, { method: "POST", headers: { "x-api-key": key }, body })
  const text = await response.text()
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text.slice(0, 500)}`)
  return JSON.parse(text)
}

const selections = JSON.stringify(Array.from({ length: rows }, (_, i) => ({ rowId: i + 1 })))
const started = performance.now()
if (step === "analyze") {
  const analysed = (await post(`${base}/analyze`, form())) as ReadonlyArray<unknown>
  if (analysed.length !== rows) throw new Error(`expected ${rows} rows, analysed ${analysed.length}`)
} else {
  const imported = (await post(base, form(selections))) as { readonly imported: number }
  if (imported.imported !== rows) throw new Error(`expected ${rows} rows, imported ${imported.imported}`)
}
console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000 }))
