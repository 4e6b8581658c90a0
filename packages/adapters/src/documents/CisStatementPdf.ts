import { formatDate, formatMoney } from "@cisbook/core/mail/MailFormat"
import type { CisStatement } from "@cisbook/core/returns/CisStatement"
import { taxMonthStart } from "@cisbook/core/returns/TaxMonth"
import { labelledRow, renderPdf } from "./PdfDocument.js"

const treatmentNames = { Gross: "gross payment", Net: "standard rate", Unmatched: "higher rate (unmatched)" } as const

/** A payment and deduction statement with every member CISR72060 asks for, on one A4 page. */
export const cisStatementPdf = (s: CisStatement) =>
  renderPdf(
    {
      title: `Payment and deduction statement, tax month ending ${formatDate(s.periodEnd)}`,
      subject: `${s.subcontractor.name}, from ${s.contractor.name}`
    },
    (doc) => {
      doc.font("Helvetica-Bold").fontSize(18).text("Payment and deduction statement")
      doc.font("Helvetica").fontSize(11).fillColor("#444444").text("Construction Industry Scheme (CIS)")
      doc.fillColor("black").moveDown(1.2)

      doc.font("Helvetica-Bold").fontSize(12).text("Contractor")
      doc.font("Helvetica").fontSize(11).text(s.contractor.name)
      doc.text(`Employer's reference: ${s.contractor.employerReference ?? "not given"}`)
      doc.text(`UTR: ${s.contractor.utr ?? "not given"}`)
      doc.moveDown(0.8)

      doc.font("Helvetica-Bold").fontSize(12).text("Subcontractor")
      doc.font("Helvetica").fontSize(11).text(s.subcontractor.name)
      doc.text(`UTR: ${s.subcontractor.utr ?? "not given"}`)
      if (s.subcontractor.verificationNumber !== null)
        doc.text(`Verification number: ${s.subcontractor.verificationNumber}`)
      doc.moveDown(0.8)

      doc
        .font("Helvetica-Bold")
        .fontSize(12)
        .text(`Tax month ending ${formatDate(s.periodEnd)}`)
      doc
        .font("Helvetica")
        .fontSize(10)
        .fillColor("#444444")
        .text(`Payments made from ${formatDate(taxMonthStart(s.periodEnd))} to ${formatDate(s.periodEnd)}`)
      doc.fillColor("black").moveDown(0.8)

      labelledRow(doc, "Gross amount paid (excluding VAT)", formatMoney(s.grossAmount))
      labelledRow(doc, "Less cost of materials", formatMoney(s.materials))
      labelledRow(doc, "Amount liable to deduction", formatMoney(s.liableToDeduction))
      labelledRow(
        doc,
        `Amount deducted (${s.deductionPercent}%, ${treatmentNames[s.subcontractor.taxTreatment]})`,
        formatMoney(s.deducted),
        { bold: true }
      )
      labelledRow(doc, "Amount paid to you", formatMoney(s.netPaid))
      doc.moveDown(1.5)

      doc
        .font("Helvetica")
        .fontSize(9)
        .fillColor("#444444")
        .text(
          "Keep this statement. The amount deducted has been or will be paid to HMRC on your behalf; you can set it against your tax and National Insurance bill (Self Assessment), or your company can claim it back through its payroll.",
          { align: "left" }
        )
    }
  )
