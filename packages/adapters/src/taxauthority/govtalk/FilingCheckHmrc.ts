import { FilingCheck, type FilingProblem } from "@cisbook/core/taxauthority/FilingCheck"
import { SCHEME_NOT_SET } from "@cisbook/core/returns/ReturnRules"
import { Clock, Effect, Layer } from "effect"
import { cis300Return, payeScheme } from "../cis300/Cis300Return.js"
import { cis300Envelope } from "./Cis300Envelope.js"
import { cisVerifyEnvelope, taxMonthEnd } from "./CisVerifyEnvelope.js"
import { builder } from "./GovTalkMessage.js"
import { hmrcSchemas, type SchemaError } from "./HmrcSchemas.js"

/** An `IRenvelope` as the document it is in a GovTalk message's Body, one element a line. */
const irEnvelopeXml = (irEnvelope: Record<string, unknown>) =>
  builder.build({ "?xml": { "@version": "1.0", "@encoding": "UTF-8" }, IRenvelope: irEnvelope }) as string

/** The 1-based lines each `Subcontractor` element of a document spans, in document order. */
const subcontractorSpans = (xml: string): ReadonlyArray<readonly [number, number]> => {
  const spans: Array<readonly [number, number]> = []
  let start = 0
  xml.split("\n").forEach((text, index) => {
    if (/<Subcontractor>/.test(text)) start = index + 1
    if (/<\/Subcontractor>/.test(text)) spans.push([start, index + 1])
  })
  return spans
}

const problemsOf = (errors: ReadonlyArray<SchemaError>, lineOf: (error: SchemaError) => number | null) =>
  errors.map((error): FilingProblem => ({ line: lineOf(error), element: error.element, message: error.message }))

/**
 * The filing check over HMRC's own schemas: each document built exactly as the GovTalk adapter
 * sends it (names in HMRC's forms) and validated by libxml2 against the vendored XSDs, compiled
 * once for the layer's life (HmrcSchemas), once per document. A return's errors are placed on the
 * line whose `Subcontractor` they fall in.
 */
export const FilingCheckHmrc = Layer.scoped(
  FilingCheck,
  Effect.map(hmrcSchemas, (hmrcSchemaErrors) =>
    FilingCheck.of({
      checkReturn: (submission) => {
        const scheme = submission.contractor.scheme
        if (scheme === null) return Effect.succeed([{ line: null, element: null, message: SCHEME_NOT_SET }])
        const xml = irEnvelopeXml(cis300Envelope(cis300Return(submission, payeScheme(scheme))))
        return Effect.map(hmrcSchemaErrors("CISreturn", xml), (errors) => {
          const spans = subcontractorSpans(xml)
          return problemsOf(errors, (error) => {
            const index = spans.findIndex(([from, to]) => error.line !== null && error.line >= from && error.line <= to)
            return index < 0 ? null : index
          })
        })
      },
      checkVerification: (request) =>
        Effect.gen(function* () {
          const scheme = payeScheme(request.contractor.scheme)
          const now = yield* Clock.currentTimeMillis
          const xml = irEnvelopeXml(
            cisVerifyEnvelope({
              contractorUtr: request.contractor.utr ?? "",
              scheme,
              subcontractor: request.subcontractor,
              periodEnd: taxMonthEnd(new Date(now))
            })
          )
          return problemsOf(yield* hmrcSchemaErrors("CISverification", xml), () => null)
        })
    })
  )
)
