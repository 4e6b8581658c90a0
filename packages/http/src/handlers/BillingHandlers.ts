import type { BillingProfile } from "@cisbook/core/billing/mandates/BillingProfile"
import type { BillingInvoice, BillingInvoiceLine } from "@cisbook/core/billing/invoicing/BillingInvoice"
import type { BillingUsage } from "@cisbook/core/billing/invoicing/BillingUsage"
import type { Mandate } from "@cisbook/core/billing/mandates/Mandate"
import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { BillingProfiles } from "@cisbook/core/billing/mandates/BillingProfiles"
import { BillingInvoices } from "@cisbook/core/billing/invoicing/BillingInvoices"
import { Mandates } from "@cisbook/core/billing/mandates/Mandates"
import { CisbookApi } from "@cisbook/sdk/Api"
import {
  BillingInvoiceDto,
  BillingInvoiceLineDto,
  BillingMandateDto,
  BillingProfileDto,
  BillingUsageDto,
  MandateSetupDto,
  UsageSubcontractorDto
} from "@cisbook/sdk/BillingDtos"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"

const profileDto = ({ address, mandateStatus }: BillingProfile) =>
  new BillingProfileDto({
    ...Option.match(address, {
      onNone: () => ({
        companyName: null,
        billingEmail: null,
        addressLine1: null,
        addressLine2: null,
        addressLine3: null,
        postcode: null,
        country: null
      }),
      onSome: (a) => ({ ...a })
    }),
    mandateStatus
  })

const mandateDto = (m: Mandate) =>
  new BillingMandateDto({
    status: m.status,
    reference: m.reference,
    accountHolderName: m.accountHolderName,
    bankName: m.bankName,
    accountNumberEnding: m.accountNumberEnding,
    nextPossibleChargeDate: m.nextPossibleChargeDate,
    createdAt: m.createdAt
  })

const usageDto = (u: BillingUsage) =>
  new BillingUsageDto({
    returnId: u.returnId,
    tenant: u.tenant,
    tenantName: u.tenantName,
    periodEnd: u.periodEnd,
    acceptedAt: u.acceptedAt,
    subcontractors: u.subcontractors.map((s) => new UsageSubcontractorDto(s))
  })

const invoiceDto = (i: BillingInvoice, lines?: ReadonlyArray<BillingInvoiceLine>) =>
  new BillingInvoiceDto({
    id: i.id,
    number: i.number,
    issueDate: i.issueDate,
    periodStart: i.periodStart,
    periodEnd: i.periodEnd,
    currency: i.currency,
    subtotal: i.subtotal,
    vat: i.vat,
    total: i.total,
    paymentStatus: i.paymentStatus,
    paymentReference: i.paymentReference,
    hasPdf: i.hasPdf,
    ...(lines === undefined
      ? {}
      : {
          lines: lines.map(
            (l) =>
              new BillingInvoiceLineDto({
                description: l.description,
                tenant: l.tenant,
                returnId: l.returnId,
                quantity: l.quantity,
                unitPrice: l.unitPrice,
                amount: l.amount
              })
          )
        })
  })

export const BillingHandlers = HttpApiBuilder.group(CisbookApi, "billing", (handlers) =>
  Effect.gen(function* () {
    const profiles = yield* BillingProfiles
    const mandates = yield* Mandates
    const invoices = yield* BillingInvoices
    return handlers
      .handle("getBillingProfile", () => CurrentUser.pipe(Effect.flatMap(profiles.get), Effect.map(profileDto)))
      .handle("updateBillingProfile", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => profiles.put(user, payload)),
          Effect.map(profileDto)
        )
      )
      .handle("createMandateSetup", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => mandates.setup(user, payload)),
          Effect.map((setup) => new MandateSetupDto(setup))
        )
      )
      .handle("completeMandateSetup", ({ payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => mandates.complete(user, payload)),
          Effect.map(mandateDto)
        )
      )
      .handle("getMandate", () => CurrentUser.pipe(Effect.flatMap(mandates.get), Effect.map(mandateDto)))
      .handle("cancelMandate", () => CurrentUser.pipe(Effect.flatMap(mandates.cancel)))
      .handle("getBillingUsage", () =>
        CurrentUser.pipe(
          Effect.flatMap(invoices.usage),
          Effect.map((usage) => usage.map(usageDto))
        )
      )
      .handle("listBillingInvoices", () =>
        CurrentUser.pipe(
          Effect.flatMap(invoices.list),
          Effect.map((list) => list.map((invoice) => invoiceDto(invoice)))
        )
      )
      .handle("getBillingInvoice", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => invoices.get(user, path.invoice)),
          Effect.map(({ invoice, lines }) => invoiceDto(invoice, lines))
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
