import { DEFAULT_CLOCK_SKEW_SECONDS, jwksIdentityVerifier } from "@cisbook/adapters/identity/JwksIdentityVerifier"
import { appLinks } from "@cisbook/adapters/AppLinksLive"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { FilingCheckHmrc } from "@cisbook/adapters/taxauthority/govtalk/FilingCheckHmrc"
import { govTalkOverServedEngine } from "./GovTalkSandbox.js"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { webhookTransport } from "@cisbook/adapters/webhooks/WebhookTransportLive"
import { goCardlessDirectDebit, type GoCardlessOptions } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import { SANDBOX_PATH } from "@cisbook/adapters/gocardless/SandboxPath"
import { ownCallHeaders } from "@cisbook/adapters/system/OwnCalls"
import { BillingTermsLive } from "@cisbook/adapters/billing/BillingTermsLive"
import { DocumentRendererPdf } from "@cisbook/adapters/documents/DocumentRendererPdf"
import type { BillingTerms } from "@cisbook/core/billing/billinginvoices/BillingTerms"
import type { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import type { BillingInvoiceRenderer } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRenderer"
import type { StatementRenderer } from "@cisbook/core/returns/StatementRenderer"
import type { ProviderEventInbox } from "@cisbook/core/billing/providerevents/ProviderEventInbox"
import type { ProviderEventSignature } from "@cisbook/core/billing/providerevents/ProviderEventSignature"
import { goCardlessNotificationSignature } from "@cisbook/adapters/gocardless/GoCardlessNotificationSignature"
import { SANDBOX_NOTIFICATION_SECRET } from "@cisbook/adapters/gocardless/GoCardlessNotificationSecret"
import { rateLimitsFlexible, RateLimitsOff } from "@cisbook/adapters/ratelimits/RateLimitsFlexible"
import type { RateLimitSettings } from "@cisbook/adapters/ratelimits/RateLimitSettings"
import type { ApiKeyRepo } from "@cisbook/core/apikeys/ApiKeyRepo"
import type { BillingProfileRepo } from "@cisbook/core/billing/mandates/BillingProfileRepo"
import type { DirectDebit } from "@cisbook/core/billing/mandates/DirectDebit"
import type { MandateRepo } from "@cisbook/core/billing/mandates/MandateRepo"
import type { Clock } from "@cisbook/core/system/Clock"
import type { ContactActivity } from "@cisbook/core/contacts/ContactActivity"
import type { AppLinks } from "@cisbook/core/system/AppLinks"
import type { ConnectionRepo } from "@cisbook/core/connections/ConnectionRepo"
import type { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import type { ImportAnalysisRepo } from "@cisbook/core/contacts/ImportAnalysisRepo"
import type { Crypto } from "@cisbook/core/system/Crypto"
import type { DeliveryRepo } from "@cisbook/core/webhooks/DeliveryRepo"
import type { MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import type { ReturnStatementRepo } from "@cisbook/core/returns/ReturnStatementRepo"
import type { ReceivedStatementRepo } from "@cisbook/core/statements/ReceivedStatementRepo"
import type { DestinationGuard } from "@cisbook/core/webhooks/DestinationGuard"
import type { EmailSettingsRepo } from "@cisbook/core/mail/EmailSettingsRepo"
import type { EventOutbox } from "@cisbook/core/events/EventOutbox"
import type { IdGenerator } from "@cisbook/core/system/IdGenerator"
import type { IdempotencyKeys } from "@cisbook/core/idempotency/IdempotencyKeys"
import type { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import type { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import type { SubcontractorPayments } from "@cisbook/core/returns/SubcontractorPayments"
import type { SalesInvoiceRepo } from "@cisbook/core/invoices/SalesInvoiceRepo"
import type { StorageHealth } from "@cisbook/core/system/StorageHealth"
import type { TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import type { FilingCheck } from "@cisbook/core/taxauthority/FilingCheck"
import type { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import type { TenantSettingsRepo } from "@cisbook/core/tenants/TenantSettingsRepo"
import type { HmrcCredentialsRepo } from "@cisbook/core/credentials/HmrcCredentialsRepo"
import type { Transactor } from "@cisbook/core/system/Transactor"
import type { UserRepo } from "@cisbook/core/users/UserRepo"
import type { VerificationQueue } from "@cisbook/core/verification/VerificationQueue"
import type { WebhookRepo } from "@cisbook/core/webhooks/WebhookRepo"
import type { WebhookSender } from "@cisbook/core/webhooks/WebhookSender"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { APP_URL } from "@cisbook/testkit/AppLinksFake"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { Users } from "@cisbook/core/users/Users"
import type { Email } from "@cisbook/core/Email"
import { type Credentials, makeClient } from "@cisbook/sdk/Client"
import { HttpClient, HttpClientRequest, type HttpClientResponse, HttpServer } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer, Redacted } from "effect"
import { HttpAppLive } from "../src/HttpAppLive.js"
import { DEFAULT_SERVER_LIMITS, makeNodeServer } from "../src/transport/NodeServer.js"
import { AUDIENCE, ISSUER, startLocalIdentityProvider } from "./LocalIdentityProvider.js"
import { asUser } from "@cisbook/core/users/ActingAs"

export type Ports =
  | BillingProfileRepo
  | MandateRepo
  | DirectDebit
  | BillingInvoiceRepo
  | BillingTerms
  | BillingInvoiceRenderer
  | StatementRenderer
  | UserRepo
  | TenantRepo
  | ApiKeyRepo
  | Clock
  | IdGenerator
  | Crypto
  | Transactor
  | TenantSettingsRepo
  | HmrcCredentialsRepo
  | EventOutbox
  | ContactRepo
  | ContactActivity
  | ImportAnalysisRepo
  | SalesInvoiceRepo
  | PurchaseInvoiceRepo
  | SubcontractorPayments
  | WebhookRepo
  | DeliveryRepo
  | MonthlyReturnRepo
  | ReturnStatementRepo
  | ReceivedStatementRepo
  | DestinationGuard
  | WebhookSender
  | VerificationQueue
  | TaxAuthority
  | FilingCheck
  | ConnectionRepo
  | AppLinks
  | EmailSettingsRepo
  | MailOutbox
  | IdempotencyKeys
  | StorageHealth
  | ProviderEventInbox
  | ProviderEventSignature

export class IdentityProvider extends Context.Tag("test/IdentityProvider")<
  IdentityProvider,
  Effect.Effect.Success<typeof startLocalIdentityProvider>
>() {}

const IdentityProviderLive = Layer.scoped(IdentityProvider, startLocalIdentityProvider)

const VerifierLive = Layer.unwrapEffect(
  Effect.map(IdentityProvider, ({ jwksUrl }) =>
    jwksIdentityVerifier({ jwksUrl, issuer: ISSUER, audience: AUDIENCE, clockSkewSeconds: DEFAULT_CLOCK_SKEW_SECONDS })
  )
)

/**
 * The GoCardless adapter pointed at the sandbox the test server serves, as DIRECT_DEBIT_PROVIDER=sandbox
 * does; with GOCARDLESS_SUCCESS_PLUS, or pages of another size, when told.
 */
export const sandboxDirectDebit = (options: Pick<GoCardlessOptions, "successPlus" | "pageLimit"> = {}) =>
  Layer.unwrapEffect(
    HttpServer.addressWith((address) =>
      Effect.succeed(
        goCardlessDirectDebit({
          baseUrl: `${HttpServer.formatAddress(address)}${SANDBOX_PATH}`,
          accessToken: Redacted.make("sandbox"),
          headers: ownCallHeaders,
          ...options
        })
      )
    )
  )

export const SandboxDirectDebit = sandboxDirectDebit()

/**
 * The real driven side over a throwaway database (PGlite, or PostgreSQL when
 * CISBOOK_TEST_DATABASE_URL is set) and the sandbox tax authority (sending as tests, GatewayTest,
 * when `gatewayTest` says); webhooks may go to private addresses only if told; rate limits only
 * when given (the tests of other things send more requests, and fail more authentications, from
 * one address than a client should); GoCardless's Success+ only when told. `system` gives the
 * clock, ids and crypto: the real ones unless a test says (ClockOfEffect: moved by TestClock).
 */
export const sqlTestPorts = (
  webhooks: { readonly allowPrivateTargets: boolean } = { allowPrivateTargets: false },
  rateLimits?: RateLimitSettings,
  directDebit: Pick<GoCardlessOptions, "successPlus"> = {},
  gatewayTest = false,
  system: Layer.Layer<Clock | IdGenerator | Crypto> = SystemLive
) =>
  Layer.mergeAll(
    SqlPortsLive,
    webhookTransport(webhooks),
    sandboxDirectDebit(directDebit),
    goCardlessNotificationSignature(Redacted.make(SANDBOX_NOTIFICATION_SECRET)),
    BillingTermsLive,
    DocumentRendererPdf,
    govTalkOverServedEngine(gatewayTest),
    FilingCheckHmrc,
    appLinks(APP_URL),
    rateLimits === undefined ? RateLimitsOff : rateLimitsFlexible(rateLimits)
  ).pipe(Layer.provideMerge(system), Layer.provideMerge(EphemeralDatabase))

export const SqlTestPorts = sqlTestPorts()

/** The server main.ts runs (its limits and its answers to malformed HTTP) on a free port, and a client of it. */
export const ServerUnderTest = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerWithoutAgent),
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
  Layer.provideMerge(NodeHttpServer.layer(() => makeNodeServer(DEFAULT_SERVER_LIMITS), { port: 0 }))
)

/**
 * The whole HTTP application over the given ports, on an in-process server, with a local
 * identity provider; without rate limits unless the ports have them.
 */
export const e2e = <P extends Ports, E>(ports: Layer.Layer<P, E, HttpServer.HttpServer>) =>
  HttpAppLive.pipe(
    Layer.provideMerge(
      Layer.merge(RateLimitsOff, UseCasesLive.pipe(Layer.provideMerge(VerifierLive), Layer.provideMerge(ports)))
    ),
    Layer.provideMerge(IdentityProviderLive),
    Layer.provideMerge(ServerUnderTest)
  )

export const client = (credentials?: Credentials) => makeClient(credentials ? { credentials } : {})

let counter = 0
/** A unique email address, so that tests sharing one database never collide. */
export const uniqueEmail = (name = "user") => `${name}.${process.pid}.${Date.now()}.${++counter}@example.com` as Email

/** A user made the way the admin CLI makes one, and a client holding their new API key. */
export const signUp = (name = "user") =>
  Effect.gen(function* () {
    const user = yield* (yield* Users).create({ email: uniqueEmail(name), name })
    const { key } = yield* (yield* ApiKeys).issue("test").pipe(asUser(user))
    return { user, key, api: yield* client({ apiKey: key }) }
  })

let tenantCounter = 0
export const uniqueTenantCode = (stem = "t") => `${stem}-${process.pid}-${Date.now().toString(36)}-${++tenantCounter}`

/** A user with a client, owning a new tenant named `${name} Ltd`. */
export const ownerOfNewTenant = (name: string) =>
  Effect.gen(function* () {
    const user = yield* signUp(name)
    const tenant = uniqueTenantCode(name)
    yield* user.api.tenants.createTenant({ payload: { code: tenant, name: `${name} Ltd` } })
    return { ...user, tenant }
  })

const statusAndJson = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.map(response.text, (text) => ({
    status: response.status,
    contentType: response.headers["content-type"] ?? "",
    body: text === "" ? undefined : (JSON.parse(text) as Record<string, any>)
  }))

const requestAs = (key: string | undefined, method: "GET" | "POST" | "PUT" | "DELETE", url: string) => {
  const base = HttpClientRequest.make(method)(url)
  return key === undefined ? base : HttpClientRequest.setHeader(base, "x-api-key", key)
}

/** A request as a client in another language would send it, and the status, content type and JSON body it gets. */
export const raw = (key: string | undefined, method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: unknown) =>
  Effect.flatMap(HttpClient.HttpClient, (http) => {
    const request = requestAs(key, method, url)
    return http.execute(body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body))
  }).pipe(Effect.flatMap(statusAndJson))

/** Like {@link raw}, with a body sent byte for byte as given (malformed on purpose, say). */
export const rawText = (
  key: string,
  method: "POST" | "PUT",
  url: string,
  body: string,
  contentType = "application/json"
) =>
  Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(HttpClientRequest.bodyText(requestAs(key, method, url), body, contentType))
  ).pipe(Effect.flatMap(statusAndJson))
