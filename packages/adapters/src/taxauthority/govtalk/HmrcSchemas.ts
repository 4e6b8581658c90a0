import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import type { validateXML, XMLValidationError } from "xmllint-wasm"

/** HMRC's published schemas of the CIS bodies, vendored beside this file (see xsd/README.md). */
export type HmrcSchema = "CISreturn" | "CISverification"

const schemaFiles: Record<HmrcSchema, string> = {
  CISreturn: "CISreturn-v1-2.xsd",
  CISverification: "CISverification-v1-2.xsd"
}
const CORE = "core-v2-0.xsd"

/** The schemas, next to this module in the sources and next to the bundle in dist/ (the build copies them). */
const xsd = (file: string) => readFile(new URL(`./xsd/${file}`, import.meta.url), "utf8")

/** HMRC's largest documents (a return of 1,000 lines) validate well within 256 MiB. */
const MAX_MEMORY_PAGES = 4096

/**
 * libxml2 (xmllint-wasm) and the schemas, loaded on first use only: the WebAssembly module is
 * compiled when the first document is checked, not when the server or the CLI starts.
 */
let loaded:
  | Promise<{
      readonly validateXML: typeof validateXML
      readonly schemas: Record<HmrcSchema | "core", string>
    }>
  | undefined

const load = () =>
  (loaded ??= Promise.all([
    import("xmllint-wasm"),
    xsd(schemaFiles.CISreturn),
    xsd(schemaFiles.CISverification),
    xsd(CORE)
  ]).then(([xmllint, CISreturn, CISverification, core]) => ({
    validateXML: xmllint.validateXML,
    schemas: { CISreturn, CISverification, core }
  })))

/** One error of HMRC's schema: the 1-based line of the document it is on, when known, and what it says. */
export interface SchemaError {
  readonly line: number | null
  /** The element it names, without its namespace (`Sur`). */
  readonly element: string | null
  /** The message, namespaces left out. */
  readonly message: string
}

const schemaError = (error: XMLValidationError): SchemaError => ({
  line: error.loc?.lineNumber ?? null,
  element: /Element '(?:\{[^}]*\})?([A-Za-z][\w.-]*)'/.exec(error.message)?.[1] ?? null,
  message: error.message.replace(/\{[^}]*\}/g, "").trim()
})

/**
 * Validates an `IRenvelope` document against HMRC's schema with libxml2: its errors, none when
 * HMRC's schema takes it. One call validates the whole document.
 */
export const hmrcSchemaErrors = (schema: HmrcSchema, xml: string): Effect.Effect<ReadonlyArray<SchemaError>> =>
  Effect.promise(async () => {
    const { validateXML, schemas } = await load()
    const result = await validateXML({
      xml: { fileName: "IRenvelope.xml", contents: xml },
      schema: { fileName: schemaFiles[schema], contents: schemas[schema] },
      preload: [{ fileName: CORE, contents: schemas.core }],
      maxMemoryPages: MAX_MEMORY_PAGES
    })
    return result.errors.map(schemaError)
  }).pipe(Effect.withSpan("HmrcSchemas.validate", { attributes: { schema } }))
