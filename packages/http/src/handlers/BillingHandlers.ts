import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { BillingProfiles } from "@cisbook/core/billing/mandates/BillingProfiles"
import { BillingInvoices } from "@cisbook/core/billing/billinginvoices/BillingInvoices"
import { Mandates } from "@cisbook/core/billing/mandates/Mandates"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import {
  billingInvoiceDto,
  billingMandateDto,
  mandateSetupDto,
  billingProfileDto,
  billingUsageDto
} from "../dto/BillingDto.js"

export const BillingHandlers = HttpApiBuilder.group(CisbookApi, "billing", (handlers) =>
  Effect.gen(function* () {
    const profiles = yield* BillingProfiles
    const mandates = yield* Mandates
    const invoices = yield* BillingInvoices
    return handlers
      .handle("getBillingProfile", () => CurrentUser.pipe(Effect.flatMap(profiles.get), Effect.map(billingProfileDto)))
      .handle("updateBillingProfile", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => profiles.put(user, payload)),
          Effect.map(billingProfileDto)
        )
      )
      .handle("createMandateSetup", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => mandates.setup(user, payload)),
          Effect.map(mandateSetupDto)
        )
      )
      .handle("completeMandateSetup", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => mandates.complete(user, payload)),
          Effect.map(billingMandateDto)
        )
      )
      .handle("getMandate", () => CurrentUser.pipe(Effect.flatMap(mandates.get), Effect.map(billingMandateDto)))
      .handle("cancelMandate", () => CurrentUser.pipe(Effect.flatMap(mandates.cancel)))
      .handle("getBillingUsage", () =>
        CurrentUser.pipe(
          Effect.flatMap(invoices.usage),
          Effect.map((usage) => usage.map(billingUsageDto))
        )
      )
      .handle("listBillingInvoices", () =>
        CurrentUser.pipe(
          Effect.flatMap(invoices.list),
          Effect.map((list) => list.map((invoice) => billingInvoiceDto(invoice)))
        )
      )
      .handle("getBillingInvoice", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => invoices.get(user, path.invoice)),
          Effect.map(({ invoice, lines }) => billingInvoiceDto(invoice, lines))
        )
      )
      .handle("getBillingInvoicePdf", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => invoices.pdf(user, path.invoice)),
          Effect.map(({ bytes, fileName }) =>
            HttpServerResponse.uint8Array(bytes, {
              contentType: "application/pdf",
              headers: { "content-disposition": `attachment; filename="${fileName}"` }
            })
          )
        )
      )
  })
)
