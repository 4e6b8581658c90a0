import { DocumentRenderer } from "@cisbook/core/system/DocumentRenderer"
import { Effect, Layer } from "effect"

const asJson = (document: unknown) => Effect.succeed(new TextEncoder().encode(JSON.stringify(document)))

/** Documents as the JSON of what they were asked to show, so that tests can read them back. */
export const DocumentRendererFake = Layer.succeed(
  DocumentRenderer,
  DocumentRenderer.of({ cisStatement: asJson, billingInvoice: asJson })
)
