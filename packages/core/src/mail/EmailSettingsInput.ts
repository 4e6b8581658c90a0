import { Schema } from "effect"

/** The email settings as a PUT carries them: both members required; a blank signature is none. */
export const EmailSettingsInput = Schema.Struct({
  signature: Schema.NullOr(
    Schema.String.pipe(Schema.maxLength(2000, { message: () => "A signature has at most 2,000 characters" }))
  ),
  autoEmailStatements: Schema.Boolean
})
export type EmailSettingsInput = typeof EmailSettingsInput.Type

/** A template's subject and body as a PUT carries them. */
export const EmailTemplateInput = Schema.Struct({
  subject: Schema.String.pipe(
    Schema.minLength(1, { message: () => "A subject is required" }),
    Schema.maxLength(200, { message: () => "A subject has at most 200 characters" }),
    Schema.filter((s) => !/[\r\n]/.test(s) || "A subject is one line, with no line breaks")
  ),
  body: Schema.String.pipe(
    Schema.minLength(1, { message: () => "A body is required" }),
    Schema.maxLength(10_000, { message: () => "A body has at most 10,000 characters" })
  )
})
export type EmailTemplateInput = typeof EmailTemplateInput.Type
