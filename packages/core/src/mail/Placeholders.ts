import type { EmailTemplateType } from "./EmailTemplateType.js"
import type { TemplateValues } from "./TemplateValues.js"

const invoice = [
  "tenantName",
  "contactName",
  "invoiceNumber",
  "issueDate",
  "dueDate",
  "total",
  "amountDue",
  "reference"
]

/** The names each template type can use, each written `{{name}}` in its subject or body. */
export const placeholdersOf: { readonly [T in EmailTemplateType]: ReadonlyArray<keyof TemplateValues[T] & string> } = {
  ConnectionInvitation: ["tenantName", "contactName", "purpose", "connectionUrl"],
  CisStatement: ["tenantName", "contactName", "taxMonthEnd", "grossAmount", "materials", "deducted"],
  SalesInvoice: invoice as ReadonlyArray<keyof TemplateValues["SalesInvoice"] & string>,
  PaymentReminder: [...invoice, "daysOverdue"] as ReadonlyArray<keyof TemplateValues["PaymentReminder"] & string>
}

/** Matches one placeholder, `{{name}}` or `{{ name }}`; group 1 is the name. */
export const placeholderPattern = () => /\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g

/** The placeholder names a text uses, in order of first use. */
export const placeholdersIn = (text: string): ReadonlyArray<string> => [
  ...new Set(Array.from(text.matchAll(placeholderPattern()), (match) => match[1] ?? ""))
]
