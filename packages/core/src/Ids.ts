import { Schema } from "effect"

const Uuid = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
  Schema.annotations({ description: "A lower-case UUID" })
)

export const UserId = Uuid.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type

export const TenantId = Uuid.pipe(Schema.brand("TenantId"))
export type TenantId = typeof TenantId.Type

export const ApiKeyId = Uuid.pipe(Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type

export const ContactId = Uuid.pipe(Schema.brand("ContactId"))
export type ContactId = typeof ContactId.Type

export const ImportAnalysisId = Uuid.pipe(Schema.brand("ImportAnalysisId"))
export type ImportAnalysisId = typeof ImportAnalysisId.Type

export const isUuid = Schema.is(Uuid)

export const SalesInvoiceId = Uuid.pipe(Schema.brand("SalesInvoiceId"))
export type SalesInvoiceId = typeof SalesInvoiceId.Type

export const SalesInvoicePaymentId = Uuid.pipe(Schema.brand("SalesInvoicePaymentId"))
export type SalesInvoicePaymentId = typeof SalesInvoicePaymentId.Type

export const PurchaseInvoiceId = Uuid.pipe(Schema.brand("PurchaseInvoiceId"))
export type PurchaseInvoiceId = typeof PurchaseInvoiceId.Type

export const PurchaseInvoicePaymentId = Uuid.pipe(Schema.brand("PurchaseInvoicePaymentId"))
export type PurchaseInvoicePaymentId = typeof PurchaseInvoicePaymentId.Type

export const WebhookId = Uuid.pipe(Schema.brand("WebhookId"))
export type WebhookId = typeof WebhookId.Type

export const DeliveryId = Uuid.pipe(Schema.brand("DeliveryId"))
export type DeliveryId = typeof DeliveryId.Type

export const MailId = Uuid.pipe(Schema.brand("MailId"))
export type MailId = typeof MailId.Type

export const ConnectionId = Uuid.pipe(Schema.brand("ConnectionId"))
export type ConnectionId = typeof ConnectionId.Type

export const MonthlyReturnId = Uuid.pipe(Schema.brand("MonthlyReturnId"))
export type MonthlyReturnId = typeof MonthlyReturnId.Type

export const BillingInvoiceId = Uuid.pipe(Schema.brand("BillingInvoiceId"))
export type BillingInvoiceId = typeof BillingInvoiceId.Type

export const MandateId = Uuid.pipe(Schema.brand("MandateId"))
export type MandateId = typeof MandateId.Type

export const ReceivedStatementId = Uuid.pipe(Schema.brand("ReceivedStatementId"))
export type ReceivedStatementId = typeof ReceivedStatementId.Type
