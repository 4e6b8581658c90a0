import type { SubcontractorPayments } from "@cisbook/core/returns/SubcontractorPayments"
import type { StorageHealth } from "@cisbook/core/system/StorageHealth"
import type { IdempotencyKeys } from "@cisbook/core/idempotency/IdempotencyKeys"
import { ApiKey } from "@cisbook/core/apikeys/ApiKey"
import { Email } from "@cisbook/core/Email"
import type { EventType } from "@cisbook/core/events/Event"
import { ApiKeyId, TenantId, UserId, WebhookId } from "@cisbook/core/Ids"
import type { ApiKeyRepo } from "@cisbook/core/apikeys/ApiKeyRepo"
import type { ContactActivity } from "@cisbook/core/contacts/ContactActivity"
import type { Clock } from "@cisbook/core/system/Clock"
import type { ConnectionRepo } from "@cisbook/core/connections/ConnectionRepo"
import type { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import type { ImportAnalysisRepo } from "@cisbook/core/contacts/ImportAnalysisRepo"
import type { DeliveryRepo } from "@cisbook/core/webhooks/DeliveryRepo"
import type { EmailSettingsRepo } from "@cisbook/core/mail/EmailSettingsRepo"
import type { ProviderEventInbox } from "@cisbook/core/billing/providerevents/ProviderEventInbox"
import type { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import type { EventOutbox } from "@cisbook/core/events/EventOutbox"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import type { MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import type { ReturnStatementRepo } from "@cisbook/core/returns/ReturnStatementRepo"
import type { ReceivedStatementRepo } from "@cisbook/core/statements/ReceivedStatementRepo"
import type { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import type { SalesInvoiceRepo } from "@cisbook/core/invoices/SalesInvoiceRepo"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import type { TenantSettingsRepo } from "@cisbook/core/tenants/TenantSettingsRepo"
import type { HmrcCredentialsRepo } from "@cisbook/core/credentials/HmrcCredentialsRepo"
import type { Transactor } from "@cisbook/core/system/Transactor"
import { UserRepo } from "@cisbook/core/users/UserRepo"
import type { VerificationQueue } from "@cisbook/core/verification/VerificationQueue"
import { WebhookRepo } from "@cisbook/core/webhooks/WebhookRepo"
import { Membership, type Role, Tenant, TenantCode } from "@cisbook/core/tenants/Tenant"
import type { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import type { BillingProfileRepo } from "@cisbook/core/billing/mandates/BillingProfileRepo"
import type { MandateRepo } from "@cisbook/core/billing/mandates/MandateRepo"
import { User, type UserWithEmail } from "@cisbook/core/users/User"
import { Webhook } from "@cisbook/core/webhooks/Webhook"
import type { Vitest } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import type { RecordedEvents } from "../RecordedEvents.js"

/** What the port contracts run against. Its IdGenerator makes each test's data unique, so one store can serve them all. */
export type ContractPorts =
  | UserRepo
  | TenantRepo
  | ApiKeyRepo
  | Transactor
  | IdGenerator
  | EventOutbox
  | RecordedEvents
  | TenantSettingsRepo
  | HmrcCredentialsRepo
  | ContactRepo
  | ImportAnalysisRepo
  | SalesInvoiceRepo
  | PurchaseInvoiceRepo
  | SubcontractorPayments
  | ContactActivity
  | WebhookRepo
  | DeliveryRepo
  | MonthlyReturnRepo
  | ReturnStatementRepo
  | ReceivedStatementRepo
  | BillingProfileRepo
  | MandateRepo
  | BillingInvoiceRepo
  | VerificationQueue
  | ConnectionRepo
  | Clock
  | EmailSettingsRepo
  | MailOutbox
  | IdempotencyKeys
  | StorageHealth
  | ProviderEventInbox

export type ContractIt = Vitest.MethodsNonLive<ContractPorts>

/** A fresh id, and a token (its hex digits) to make emails, subjects and codes unique. */
export const fresh = Effect.map(
  Effect.flatMap(IdGenerator, (ids) => ids.uuid),
  (id) => ({ id, token: id.replaceAll("-", "") })
)

/** An instant `minutes` after a fixed point, with milliseconds so that precision is exercised. */
export const at = (minutes: number) => new Date(Date.UTC(2026, 0, 5, 9, 0, 0, 123) + minutes * 60_000)

export const newUser = (
  fields: { readonly label?: string; readonly subject?: boolean; readonly createdAt?: Date } = {}
) =>
  Effect.map(
    fresh,
    ({ id, token }) =>
      new User({
        id: UserId.make(id),
        email: Email.make(`${fields.label ?? "user"}-${token}@example.com`),
        name: `User ${token.slice(-6)}`,
        subject: fields.subject ? `subject|${token}` : null,
        createdAt: fields.createdAt ?? at(0)
      }) as UserWithEmail
  )

export const newTenant = (
  fields: { readonly code?: string; readonly email?: boolean; readonly createdAt?: Date } = {}
) =>
  Effect.map(
    fresh,
    ({ id, token }) =>
      new Tenant({
        id: TenantId.make(id),
        code: TenantCode.make(fields.code ?? `t${token}`),
        name: `Tenant ${token.slice(-6)}`,
        email: fields.email ? Email.make(`office-${token}@example.com`) : null,
        createdAt: fields.createdAt ?? at(0)
      })
  )

export const membership = (tenant: Tenant, user: User, role: Role, addedAt: Date = at(0)) =>
  new Membership({ tenantId: tenant.id, userId: user.id, role, addedAt })

export const newApiKey = (user: User, fields: { readonly createdAt?: Date } = {}) =>
  Effect.map(fresh, ({ id, token }) => ({
    key: new ApiKey({
      id: ApiKeyId.make(id),
      userId: user.id,
      name: `Key ${token.slice(-6)}`,
      prefix: `cis_${token.slice(0, 6)}`,
      createdAt: fields.createdAt ?? at(0),
      lastUsedAt: null
    }),
    hash: `${token}${token}`
  }))

/** A tenant in the store, owned by a new user: for the contracts of what a tenant owns. */
export const storedTenant = Effect.gen(function* () {
  const owner = yield* newUser()
  yield* Effect.flatMap(UserRepo, (users) => users.insert(owner))
  const tenant = yield* newTenant()
  yield* Effect.flatMap(TenantRepo, (tenants) => tenants.insert(tenant, membership(tenant, owner, "Owner")))
  return tenant
})

/** A webhook of the tenant in the store (enabled, every kind, unless told), and its secret. */
export const storedWebhook = (
  tenant: Tenant,
  fields: { readonly enabled?: boolean; readonly eventTypes?: ReadonlyArray<EventType>; readonly createdAt?: Date } = {}
) =>
  Effect.gen(function* () {
    const { id, token } = yield* fresh
    const webhook = new Webhook({
      id: WebhookId.make(id),
      tenantId: tenant.id,
      url: `https://hooks.example.com/${token}`,
      description: null,
      eventTypes: fields.eventTypes ?? [],
      enabled: fields.enabled ?? true,
      createdAt: fields.createdAt ?? at(0)
    })
    const secret = Redacted.make(`whsec_${token}`)
    yield* Effect.flatMap(WebhookRepo, (repo) => repo.insert(webhook, secret))
    return { webhook, secret }
  })
