import { Schema } from "effect"

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" })

// Intl names every assigned ISO 3166-1 code, and also a few groupings that are no country.
const notCountries = new Set(["EU", "EZ", "UN", "QO", "ZZ"])
const isCountry = (code: string) =>
  /^[A-Z]{2}$/.test(code) && !notCountries.has(code) && regionNames.of(code) !== undefined

/** An ISO 3166-1 alpha-2 country code, decoded upper case (gb → GB). */
export const CountryCode = Schema.Trim.pipe(
  Schema.compose(Schema.Uppercase),
  Schema.filter((code) => isCountry(code) || "Must be an ISO 3166-1 alpha-2 country code, for example GB"),
  Schema.annotations({ title: "CountryCode", examples: ["GB"] })
)
