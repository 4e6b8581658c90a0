import { Schema } from "effect"
import { CalendarDate } from "../CalendarDate.js"
import { CisScheme } from "./CisScheme.js"

/**
 * A contractor's CIS scheme registration: the PAYE scheme it files under, and the date its CIS
 * registration with HMRC began (returns are due from that date's tax month on).
 */
export interface SchemeRegistration {
  readonly scheme: CisScheme
  readonly registeredFrom: string
}

/** The registration as a request sets it: `registeredFrom` left out keeps the recorded one (or is today, the first time). */
export const SchemeRegistrationInput = Schema.Struct({
  ...CisScheme.fields,
  registeredFrom: Schema.optionalWith(
    CalendarDate.annotations({
      description: "The date the contractor's CIS registration with HMRC began: returns are due from its tax month on"
    }),
    { nullable: true }
  )
})
export type SchemeRegistrationInput = typeof SchemeRegistrationInput.Encoded
