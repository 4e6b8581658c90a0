import { Schema } from "effect"

const shape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** An email address, trimmed and lower-cased. */
export const Email = Schema.Trim.pipe(
  Schema.compose(Schema.Lowercase),
  Schema.maxLength(254, { message: () => "An email address has at most 254 characters" }),
  Schema.filter((s) => shape.test(s) || "Must be an email address such as name@example.com"),
  Schema.brand("Email"),
  Schema.annotations({ title: "Email", examples: ["ada@example.com" as never] })
)
export type Email = typeof Email.Type
