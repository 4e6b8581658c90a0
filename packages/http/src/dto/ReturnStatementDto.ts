// The statements of accepted returns, as the sdk's ReturnStatementDtos show them, for the handlers.
import type { StatementFile } from "@cisbook/core/returns/CisStatement"
import type { ReturnStatement } from "@cisbook/core/returns/ReturnStatements"
import type { ReturnStatementDto } from "@cisbook/sdk/ReturnStatementDtos"
import { HttpServerResponse } from "@effect/platform"

export const returnStatementDto = ({
  deliveredTo,
  emailedAt,
  emailedTo,
  line,
  periodEnd
}: ReturnStatement): ReturnStatementDto => ({
  contact: line.contactCode,
  name: line.name,
  utr: line.utr,
  verificationNumber: line.verificationNumber,
  taxTreatment: line.taxTreatment,
  periodEnd,
  grossAmount: line.grossAmount,
  materials: line.materials,
  deducted: line.deducted,
  emailedTo,
  emailedAt,
  deliveredTo
})

/** A statement's PDF, as a file to save. */
export const statementPdfResponse = ({ content, filename }: StatementFile) =>
  HttpServerResponse.uint8Array(content, {
    contentType: "application/pdf",
    headers: { "content-disposition": `attachment; filename="${filename}"` }
  })
