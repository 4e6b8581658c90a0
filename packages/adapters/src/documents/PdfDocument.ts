import { Effect } from "effect"
import type PdfKit from "pdfkit"

/** pdfkit (and its fonts), loaded when the first document is drawn rather than at every start. */
const pdfKit = Effect.promise(() => import("pdfkit").then((module) => module.default))

/** An A4 page with the service's margins, drawn by `draw`, as the bytes of a PDF file. */
export const renderPdf = (
  info: { readonly title: string; readonly subject: string },
  draw: (doc: PDFKit.PDFDocument) => void
): Effect.Effect<Uint8Array> => Effect.flatMap(pdfKit, (PDFDocument) => drawn(PDFDocument, info, draw))

const drawn = (
  PDFDocument: typeof PdfKit,
  info: { readonly title: string; readonly subject: string },
  draw: (doc: PDFKit.PDFDocument) => void
) =>
  Effect.async<Uint8Array>((resume) => {
    const doc = new PDFDocument({
      size: "A4",
      margin: 56,
      info: { Title: info.title, Subject: info.subject, Author: "cisbook", Creator: "cisbook" }
    })
    const chunks: Array<Buffer> = []
    doc.on("data", (chunk: Buffer) => chunks.push(chunk))
    doc.on("end", () => resume(Effect.succeed(new Uint8Array(Buffer.concat(chunks)))))
    doc.on("error", (error: unknown) => resume(Effect.die(error)))
    draw(doc)
    doc.end()
  })

/** A row of a two-column table: a label on the left, a value on the right of the text width. */
export const labelledRow = (
  doc: PDFKit.PDFDocument,
  label: string,
  value: string,
  options: { readonly bold?: boolean } = {}
) => {
  const y = doc.y
  const left = doc.page.margins.left
  const width = doc.page.width - left - doc.page.margins.right
  doc.font(options.bold ? "Helvetica-Bold" : "Helvetica").fontSize(11)
  doc.text(label, left, y, { width: width * 0.65 })
  doc.text(value, left, y, { width, align: "right" })
  doc.moveDown(0.4)
}
