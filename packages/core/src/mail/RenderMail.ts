import type { TemplateText } from "./DefaultTemplates.js"
import type { EmailTemplateType } from "./EmailTemplateType.js"
import { formatDate, formatMoney } from "./MailFormat.js"
import { placeholderPattern } from "./Placeholders.js"
import type { TemplateValues } from "./TemplateValues.js"

const amounts = new Set(["total", "amountDue", "grossAmount", "materials", "deducted"])
const dates = new Set(["issueDate", "dueDate", "taxMonthEnd"])

/** A value as people read it: amounts in pounds, dates in words, nothing as an empty string. */
const formatValue = (name: string, value: unknown): string => {
  if (value === null || value === undefined) return ""
  if (amounts.has(name) && typeof value === "number") return formatMoney(value)
  if (dates.has(name) && typeof value === "string") return formatDate(value)
  return String(value)
}

/** Line breaks and other control characters become spaces, so that a value stays on its line. */
export const oneLine = (text: string): string => text.replace(/[\p{Cc}\u2028\u2029]+/gu, " ")

/**
 * Fills every placeholder in one pass over the template, so that a value is inserted as text:
 * braces in a value are never read as a placeholder.
 */
const fill = (template: string, values: Record<string, unknown>, clean: (s: string) => string) =>
  template.replace(placeholderPattern(), (_, name: string) => clean(formatValue(name, values[name])))

export interface RenderedMail {
  readonly subject: string
  readonly body: string
}

/**
 * A mail from a template: the subject on one line, whatever the values hold; the body as text,
 * ending with a signature block (`-- ` on its own line, then the signature) when there is one.
 */
export const renderMail = <T extends EmailTemplateType>(
  template: TemplateText,
  values: TemplateValues[T],
  signature: string | null
): RenderedMail => {
  const all = values as unknown as Record<string, unknown>
  const subject = oneLine(fill(template.subject, all, oneLine)).trim()
  const body = fill(template.body, all, (s) => s)
  return { subject, body: signature === null ? body : `${body}\n\n-- \n${signature}` }
}
