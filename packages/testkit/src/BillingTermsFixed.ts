import { BillingTerms } from "@cisbook/core/billing/billinginvoices/BillingTerms"
import { Layer } from "effect"

/** The service charges £1.00 a subcontractor, as a sample seller. */
export const BillingTermsFixed = Layer.succeed(
  BillingTerms,
  BillingTerms.of({
    pricePerSubcontractor: 100,
    seller: { name: "cisbook Ltd", address: ["1 Example Street", "London", "EC1A 1BB"], vatNumber: "GB123456789" }
  })
)
