import { Schema } from "effect"

/** A contact named in a request by its code, in any case: invoices and returns name their contact so. */
export const ContactReference = Schema.String.pipe(
  Schema.minLength(1, { message: () => "A contact code is required" }),
  Schema.annotations({ description: "The contact's code, in any case", examples: ["ACMEBUIL"] })
)
