import { Schema } from "effect"

const shape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** An email address as it comes over the wire: trimmed, lower-cased and checked. */
export const EmailAddress = Schema.Trim.pipe(
  Schema.compose(Schema.Lowercase),
  Schema.maxLength(254, { message: () => "An email address has at most 254 characters" }),
  Schema.filter((s) => shape.test(s) || "Must be an email address such as name@example.com"),
  Schema.annotations({ title: "Email", format: "email", examples: ["ada@example.com"] })
)

export const Email = EmailAddress.pipe(Schema.brand("Email"))
export type Email = typeof Email.Type
