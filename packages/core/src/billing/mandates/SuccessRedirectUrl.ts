import { Schema } from "effect"

const isAbsoluteHttpUrl = (s: string) => {
  try {
    const url = new URL(s)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** Where the provider sends the customer's browser back: an absolute http or https URL. */
export const SuccessRedirectUrl = Schema.Trim.pipe(
  Schema.maxLength(2000, { message: () => "A URL has at most 2000 characters" }),
  Schema.filter((s) => isAbsoluteHttpUrl(s) || "Must be an absolute http or https URL"),
  Schema.annotations({ format: "uri", examples: ["https://app.cisbook.example/billing/mandate/complete"] })
)
