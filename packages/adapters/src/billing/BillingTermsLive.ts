import { BillingTerms } from "@cisbook/core/billing/billinginvoices/BillingTerms"
import { Pounds } from "@cisbook/core/Money"
import { Config, ConfigError, Either, Layer, Schema } from "effect"

const poundsToPence = Schema.decodeUnknownEither(Schema.compose(Schema.NumberFromString, Pounds))

/** BILLING_PRICE_PER_SUBCONTRACTOR: pounds with at most 2 decimal places, as pence. */
const price = Config.string("BILLING_PRICE_PER_SUBCONTRACTOR").pipe(
  Config.withDefault("1.00"),
  Config.mapOrFail((text) =>
    Either.mapLeft(poundsToPence(text.trim()), () =>
      ConfigError.InvalidData(
        [],
        `BILLING_PRICE_PER_SUBCONTRACTOR: expected an amount in pounds, 0 or more, with at most 2 decimal places (for example 1.00) but received ${text}`
      )
    )
  )
)

/**
 * The seller and the price on the service's invoices: BILLING_COMPANY_NAME, BILLING_COMPANY_ADDRESS
 * (lines separated by commas or new lines), BILLING_VAT_NUMBER, BILLING_PRICE_PER_SUBCONTRACTOR.
 * The defaults are sample values for development.
 */
export const BillingTermsConfig = Config.all({
  pricePerSubcontractor: price,
  seller: Config.all({
    name: Config.withDefault(Config.string("BILLING_COMPANY_NAME"), "cisbook Ltd"),
    address: Config.map(
      Config.withDefault(Config.string("BILLING_COMPANY_ADDRESS"), "1 Example Street, London, EC1A 1BB"),
      (text) =>
        text
          .split(/[,\n]/)
          .map((line) => line.trim())
          .filter((line) => line !== "")
    ),
    vatNumber: Config.withDefault(Config.string("BILLING_VAT_NUMBER"), "GB123456789")
  })
})

export const BillingTermsLive = Layer.effect(BillingTerms, BillingTermsConfig)
