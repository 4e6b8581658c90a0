import { BillingProfiles } from "@cisbook/core/billing/mandates/BillingProfiles"
import { BillingInvoices } from "@cisbook/core/billing/billinginvoices/BillingInvoices"
import { Mandates } from "@cisbook/core/billing/mandates/Mandates"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Array, Effect } from "effect"
import {
  billingInvoiceDto,
  billingInvoicePdfResponse,
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
      .handle("getBillingProfile", () => profiles.get().pipe(Effect.map(billingProfileDto)))
      .handle("updateBillingProfile", ({ payload }) => profiles.put(payload).pipe(Effect.map(billingProfileDto)))
      .handle("createMandateSetup", ({ payload }) => mandates.setup(payload).pipe(Effect.map(mandateSetupDto)))
      .handle("completeMandateSetup", ({ payload }) => mandates.complete(payload).pipe(Effect.map(billingMandateDto)))
      .handle("getMandate", () => mandates.get().pipe(Effect.map(billingMandateDto)))
      .handle("cancelMandate", () => mandates.cancel())
      .handle("getBillingUsage", () => invoices.usage().pipe(Effect.map(Array.map(billingUsageDto))))
      .handle("listBillingInvoices", () =>
        invoices.list().pipe(Effect.map(Array.map((invoice) => billingInvoiceDto(invoice))))
      )
      .handle("getBillingInvoice", ({ path }) =>
        invoices.get(path.invoice).pipe(Effect.map(({ invoice, lines }) => billingInvoiceDto(invoice, lines)))
      )
      .handle("getBillingInvoicePdf", ({ path }) =>
        invoices.pdf(path.invoice).pipe(Effect.map(billingInvoicePdfResponse))
      )
  })
)
