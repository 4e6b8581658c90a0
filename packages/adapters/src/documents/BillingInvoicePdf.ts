import type { InvoiceDocument } from "@cisbook/core/billing/billinginvoices/InvoiceDocument"
import { VAT_PERCENT } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import { formatDate, formatMoney } from "@cisbook/core/mail/MailFormat"
import { renderPdf } from "./PdfDocument.js"

const GREY = "#555555"

/** The buyer's lines: a billing address, or the user's name and email when they never set one. */
const buyerLines = (buyer: InvoiceDocument["buyer"]): ReadonlyArray<string> =>
  "companyName" in buyer
    ? [
        buyer.companyName,
        buyer.addressLine1,
        ...(buyer.addressLine2 === null ? [] : [buyer.addressLine2]),
        ...(buyer.addressLine3 === null ? [] : [buyer.addressLine3]),
        `${buyer.postcode}  ${buyer.country}`,
        buyer.billingEmail
      ]
    : [buyer.name, ...(buyer.email === null ? [] : [buyer.email])]

const howPaid = ({ invoice, mandateReference }: InvoiceDocument): string =>
  invoice.total === 0
    ? "Nothing to pay."
    : mandateReference === null
      ? `Waiting for a direct debit mandate. Set one up under Billing in cisbook and ${formatMoney(invoice.total)} will be collected by Direct Debit; nothing else needs doing.`
      : `${formatMoney(invoice.total)} will be collected by Direct Debit from the bank account of mandate ${mandateReference}. Please do not pay by other means.`

/** Columns of the lines table, as shares of the text width. */
const COLUMNS = [
  { title: "Description", share: 0.58, align: "left" },
  { title: "Qty", share: 0.1, align: "right" },
  { title: "Unit price", share: 0.14, align: "right" },
  { title: "Amount", share: 0.18, align: "right" }
] as const

/** The service's VAT invoice (HMRC's full VAT invoice: seller and VAT number, buyer, number, dates, lines, VAT). */
export const billingInvoicePdf = (d: InvoiceDocument) =>
  renderPdf({ title: `Invoice ${d.invoice.number}`, subject: `VAT invoice from ${d.seller.name}` }, (doc) => {
    const left = doc.page.margins.left
    const width = doc.page.width - left - doc.page.margins.right
    const bottom = () => doc.page.height - doc.page.margins.bottom

    const top = doc.y
    doc.font("Helvetica-Bold").fontSize(22).text("VAT invoice", left, top)
    doc.font("Helvetica").fontSize(11).fillColor(GREY).text(d.invoice.number)
    const afterTitle = doc.y
    doc.fillColor("black").font("Helvetica-Bold").fontSize(11)
    doc.text(d.seller.name, left, top, { width, align: "right" })
    doc.font("Helvetica").fontSize(10)
    for (const line of d.seller.address) doc.text(line, { width, align: "right" })
    doc.text(`VAT registration number: ${d.seller.vatNumber}`, { width, align: "right" })
    doc.y = Math.max(doc.y, afterTitle) + 24

    const blockTop = doc.y
    doc
      .font("Helvetica-Bold")
      .fontSize(10)
      .text("Bill to", left, blockTop, { width: width / 2 })
    doc.font("Helvetica").fontSize(10)
    for (const line of buyerLines(d.buyer)) doc.text(line, { width: width / 2 })
    const afterBuyer = doc.y
    const facts: ReadonlyArray<readonly [string, string]> = [
      ["Invoice number", d.invoice.number],
      ["Date (tax point)", formatDate(d.invoice.issueDate)],
      ["Period", `${formatDate(d.invoice.periodStart)} to ${formatDate(d.invoice.periodEnd)}`],
      ["Currency", "GBP (£)"]
    ]
    doc.y = blockTop
    for (const [label, value] of facts) {
      const y = doc.y
      doc
        .font("Helvetica-Bold")
        .fontSize(10)
        .text(label, left + width * 0.46, y, { width: width * 0.22 })
      const afterLabel = doc.y
      doc.font("Helvetica").text(value, left + width * 0.68, y, { width: width * 0.32, align: "right" })
      doc.y = Math.max(doc.y, afterLabel) + 2
    }
    doc.y = Math.max(doc.y, afterBuyer) + 24

    /** A table row: cells in their columns, and under the first an optional note in small grey type. */
    const row = (cells: ReadonlyArray<string>, options: { readonly bold?: boolean; readonly note?: string } = {}) => {
      const font = options.bold ? "Helvetica-Bold" : "Helvetica"
      const cellWidth = (i: number) => COLUMNS[i]!.share * width - 6
      const cellsHeight = Math.max(
        ...cells.map((cell, i) =>
          doc
            .font(font)
            .fontSize(10)
            .heightOfString(cell, { width: cellWidth(i) })
        )
      )
      const noteHeight =
        options.note === undefined ? 0 : doc.fontSize(8).heightOfString(options.note, { width: cellWidth(0) })
      if (doc.y + cellsHeight + noteHeight + 6 > bottom()) {
        doc.addPage()
        doc.font("Helvetica").fontSize(9).fillColor(GREY).text(`${d.invoice.number}, continued`, left, doc.y)
        doc.fillColor("black").moveDown(0.6)
        header()
      }
      const y = doc.y
      let x = left
      cells.forEach((cell, i) => {
        doc.font(font).fontSize(10).fillColor("black")
        doc.text(cell, x, y, { width: cellWidth(i), align: COLUMNS[i]!.align })
        x += COLUMNS[i]!.share * width
      })
      if (options.note !== undefined) {
        doc.font("Helvetica").fontSize(8).fillColor(GREY)
        doc.text(options.note, left, y + cellsHeight, { width: cellWidth(0) })
        doc.fillColor("black")
      }
      doc.y = y + cellsHeight + noteHeight + 6
      doc
        .moveTo(left, doc.y - 3)
        .lineTo(left + width, doc.y - 3)
        .lineWidth(0.5)
        .strokeColor("#cccccc")
        .stroke()
    }
    const header = () =>
      row(
        COLUMNS.map((c) => c.title),
        { bold: true }
      )
    header()
    for (const line of d.lines) {
      row([line.description, String(line.quantity), formatMoney(line.unitPrice), formatMoney(line.amount)], {
        note: `Tenant ${line.tenant}, monthly return ${line.returnId}`
      })
    }
    // The totals and the payment note stay together on one page.
    if (doc.y + 170 > bottom()) doc.addPage()

    doc.moveDown(0.6)
    const total = (label: string, value: string, bold = false) => {
      const y = doc.y
      doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(bold ? 12 : 10)
      doc.text(label, left + width * 0.45, y, { width: width * 0.35, align: "right" })
      doc.text(value, left + width * 0.8, y, { width: width * 0.2, align: "right" })
      doc.moveDown(0.3)
    }
    total("Subtotal (excluding VAT)", formatMoney(d.invoice.subtotal))
    total(`VAT at ${VAT_PERCENT}%`, formatMoney(d.invoice.vat))
    total("Total due", formatMoney(d.invoice.total), true)

    doc.moveDown(1.5)
    doc.font("Helvetica-Bold").fontSize(11).text("How this invoice is paid", left, doc.y, { width })
    doc.font("Helvetica").fontSize(10).text(howPaid(d), { width })
    doc.moveDown(1)
    doc
      .fontSize(8)
      .fillColor(GREY)
      .text(
        `${d.seller.name}, ${d.seller.address.join(", ")}. VAT registration number ${d.seller.vatNumber}. Questions about this invoice: reply to the email it came with.`,
        { width }
      )
      .fillColor("black")
  })
