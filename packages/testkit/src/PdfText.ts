import { Effect } from "effect"
import { extractText, getDocumentProxy } from "unpdf"

/** The text a person reads in a PDF, page after page, as PDF.js extracts it. */
export const pdfText = (pdf: Uint8Array): Effect.Effect<string> =>
  Effect.promise(async () => {
    const document = await getDocumentProxy(new Uint8Array(pdf))
    const { text } = await extractText(document, { mergePages: true })
    return text
  })
