import { Schema } from "effect"

export const EmailSignature = Schema.String.pipe(
  Schema.maxLength(2000, { message: () => "A signature has at most 2,000 characters" })
)

export const EmailSubject = Schema.String.pipe(
  Schema.minLength(1, { message: () => "A subject is required" }),
  Schema.maxLength(200, { message: () => "A subject has at most 200 characters" }),
  Schema.filter((s) => !/[\r\n]/.test(s) || "A subject is one line, with no line breaks")
)

export const EmailBody = Schema.String.pipe(
  Schema.minLength(1, { message: () => "A body is required" }),
  Schema.maxLength(10_000, { message: () => "A body has at most 10,000 characters" })
)

/** The email settings, replaced whole (the sdk's UpdateEmailSettingsRequest decodes to it); a blank signature is none. */
export interface EmailSettingsInput {
  /** An EmailSignature. */
  readonly signature: string | null
  readonly autoEmailStatements: boolean
}

/** A template's subject and body (the sdk's UpdateEmailTemplateRequest decodes to it). */
export interface EmailTemplateInput {
  /** An EmailSubject. */
  readonly subject: string
  /** An EmailBody. */
  readonly body: string
}
