import { type Json, operationsOf } from "../api/OpenApiPaths.js"

const contentDisposition = {
  description: "attachment, with the file's name: sent with the file (PDF or CSV) only",
  schema: { type: "string", examples: ['attachment; filename="sales-invoice-payments-2026-04-06-to-2026-05-05.csv"'] }
}

const FILE_TYPES = ["application/pdf", "text/csv"]

/**
 * Answers that carry a file name it in Content-Disposition (a header the platform cannot
 * declare; the handlers that answer a file set it).
 */
export const withContentDisposition = (spec: Json): Json => {
  for (const [, , operation] of operationsOf(spec)) {
    for (const answer of Object.values(operation.responses ?? {}) as Array<Json>) {
      if (!FILE_TYPES.some((type) => answer.content?.[type] !== undefined)) continue
      answer.headers = { ...answer.headers, "Content-Disposition": contentDisposition }
    }
  }
  return spec
}
