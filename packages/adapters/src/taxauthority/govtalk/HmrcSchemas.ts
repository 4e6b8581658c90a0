import { Effect, type Scope } from "effect"
import { readFile } from "node:fs/promises"
import type { ErrorDetail, XsdValidator } from "libxml2-wasm"

/** HMRC's published schemas of the CIS bodies, vendored beside this file (see xsd/README.md). */
export type HmrcSchema = "CISreturn" | "CISverification"

const schemaFiles: Record<HmrcSchema, string> = {
  CISreturn: "CISreturn-v1-2.xsd",
  CISverification: "CISverification-v1-2.xsd"
}
const CORE = "core-v2-0.xsd"

/**
 * Where libxml2 finds the schemas: HMRC's XSDs include `core-v2-0.xsd` by a relative location,
 * resolved against the including schema's URL to one the input provider below answers.
 */
const BASE = "hmrc-xsd:///"

/** The schemas, next to this module in the sources and next to the bundle in dist/ (the build copies them). */
const xsd = (file: string) => readFile(new URL(`./xsd/${file}`, import.meta.url))

/** One error of HMRC's schema: the 1-based line of the document it is on, when known, and what it says. */
export interface SchemaError {
  readonly line: number | null
  /** The element it names, without its namespace (`Sur`). */
  readonly element: string | null
  /** The message, namespaces left out. */
  readonly message: string
}

const schemaError = (detail: Pick<ErrorDetail, "message" | "line">): SchemaError => ({
  line: detail.line > 0 ? detail.line : null,
  element: /Element '(?:\{[^}]*\})?([A-Za-z][\w.-]*)'/.exec(detail.message)?.[1] ?? null,
  message: detail.message.replace(/\{[^}]*\}/g, "").trim()
})

/** Validates an `IRenvelope` document against one of HMRC's schemas: its errors, none when HMRC's schema takes it. */
export type HmrcSchemaErrors = (schema: HmrcSchema, xml: string) => Effect.Effect<ReadonlyArray<SchemaError>>

/** The input provider of HMRC's included schema is registered with libxml2 once per process: it never changes. */
let includesRegistered = false

/**
 * HMRC's schemas compiled once by libxml2 (libxml2-wasm: its WebAssembly is compiled when this
 * is first built, not when the server or the CLI starts), each document then validated against
 * the compiled schema, for the life of the scope, which disposes of them. A validation is one
 * synchronous call into libxml2 on the calling thread: calls made at once run one after the
 * other, never inside one another.
 */
export const hmrcSchemas: Effect.Effect<HmrcSchemaErrors, never, Scope.Scope> = Effect.gen(function* () {
  const libxml2 = yield* Effect.promise(() => import("libxml2-wasm"))
  const [returns, verifications, core] = yield* Effect.promise(() =>
    Promise.all([xsd(schemaFiles.CISreturn), xsd(schemaFiles.CISverification), xsd(CORE)])
  )
  if (!includesRegistered) {
    libxml2.xmlRegisterInputProvider(new libxml2.XmlBufferInputProvider({ [`${BASE}${CORE}`]: core }))
    includesRegistered = true
  }

  const compile = (schema: HmrcSchema, source: Uint8Array) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        const document = libxml2.XmlDocument.fromBuffer(source, { url: `${BASE}${schemaFiles[schema]}` })
        try {
          return { document, validator: libxml2.XsdValidator.fromDoc(document) }
        } catch (error) {
          document.dispose()
          throw error
        }
      }),
      ({ document, validator }) =>
        Effect.sync(() => {
          validator.dispose()
          document.dispose()
        })
    )

  const validators: Record<HmrcSchema, XsdValidator> = {
    CISreturn: (yield* compile("CISreturn", returns)).validator,
    CISverification: (yield* compile("CISverification", verifications)).validator
  }

  return (schema, xml) =>
    Effect.sync((): ReadonlyArray<SchemaError> => {
      let document
      try {
        document = libxml2.XmlDocument.fromString(xml)
        validators[schema].validate(document)
        return []
      } catch (error) {
        if (error instanceof libxml2.XmlLibError) return error.details.map(schemaError)
        throw error
      } finally {
        document?.dispose()
      }
    }).pipe(Effect.withSpan("HmrcSchemas.validate", { attributes: { schema } }))
})
