import type { BillingProfile } from "@cisbook/core/billing/mandates/BillingProfile"
import type { BillingInvoice, BillingInvoiceLine } from "@cisbook/core/billing/billinginvoices/BillingInvoice"
import type { BillingUsage } from "@cisbook/core/billing/billinginvoices/BillingUsage"
import type { Mandate } from "@cisbook/core/billing/mandates/Mandate"
import type { MandateSetup } from "@cisbook/core/billing/mandates/Mandates"
import {
  BillingInvoiceDto,
  BillingInvoiceLineDto,
  BillingMandateDto,
  BillingProfileDto,
  BillingUsageDto,
  MandateSetupDto,
  UsageSubcontractorDto
} from "@cisbook/sdk/BillingDtos"
import { HttpServerResponse } from "@effect/platform"
import { Option } from "effect"

export const billingProfileDto = ({ address, mandateStatus }: BillingProfile) =>
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

export const mandateSetupDto = (setup: MandateSetup) => new MandateSetupDto(setup)

export const billingMandateDto = (m: Mandate) =>
  new BillingMandateDto({
    status: m.status,
    reference: m.reference,
    accountHolderName: m.accountHolderName,
    bankName: m.bankName,
    accountNumberEnding: m.accountNumberEnding,
    nextPossibleChargeDate: m.nextPossibleChargeDate,
    createdAt: m.createdAt
  })

/** An item of the usage list, built without the constructors' validation as an invoice is (below). */
export const billingUsageDto = (u: BillingUsage) =>
  new BillingUsageDto(
    {
      returnId: u.returnId,
      tenant: u.tenant,
      tenantName: u.tenantName,
      periodEnd: u.periodEnd,
      acceptedAt: u.acceptedAt,
      subcontractors: u.subcontractors.map(
        (s) => new UsageSubcontractorDto({ contactCode: s.contactCode, name: s.name }, true)
      )
    },
    true
  )

/**
 * The invoice's members; with `lines`, the single-invoice form. Built without the constructor's
 * validation (the members are the domain's, already valid, and the endpoint's schema checks them
 * again as it encodes): validating cost about 100 µs an invoice, most of a list's CPU.
 */
export const billingInvoiceDto = (i: BillingInvoice, lines?: ReadonlyArray<BillingInvoiceLine>) =>
  new BillingInvoiceDto(
    {
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
                new BillingInvoiceLineDto(
                  {
                    description: l.description,
                    tenant: l.tenant,
                    returnId: l.returnId,
                    quantity: l.quantity,
                    unitPrice: l.unitPrice,
                    amount: l.amount
                  },
                  true
                )
            )
          })
    },
    true
  )

/** The invoice's PDF, as a file to save. */
export const billingInvoicePdfResponse = ({
  bytes,
  fileName
}: {
  readonly bytes: Uint8Array
  readonly fileName: string
}) =>
  HttpServerResponse.uint8Array(bytes, {
    contentType: "application/pdf",
    headers: { "content-disposition": `attachment; filename="${fileName}"` }
  })
