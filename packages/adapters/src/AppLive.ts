import { UseCasesLive } from "@cisbook/core/UseCases"
import type { SqlClient } from "@effect/sql"
import { DirectDebit } from "@cisbook/core/billing/mandates/DirectDebit"
import { TaxAuthority } from "@cisbook/core/taxauthority/TaxAuthority"
import { Layer } from "effect"
import { BillingTermsLive } from "./billing/BillingTermsLive.js"
import { DocumentRendererPdf } from "./documents/DocumentRendererPdf.js"
import { DirectDebitLive } from "./gocardless/DirectDebitLive.js"
import { measuredPort } from "./metrics/ProviderCallMetrics.js"
import { ProviderWebhookSignatureLive } from "./gocardless/GoCardlessWebhookSignature.js"
import { AppLinksLive } from "./AppLinksLive.js"
import { LookupCacheTtlLive } from "./LookupCacheTtlLive.js"
import { IdentityVerifierLive } from "./identity/JwksIdentityVerifier.js"
import { DatabaseLive, SharedDatabaseLive } from "./sql/Database.js"
import { MigrationsLive } from "./sql/Migrations.js"
import { SqlPortsLive } from "./sql/SqlPortsLive.js"
import { SystemLive } from "./system/SystemLive.js"
import { TaxAuthorityLive } from "./taxauthority/TaxAuthorityLive.js"
import { FilingCheckHmrc } from "./taxauthority/govtalk/FilingCheckHmrc.js"
import { WebhookTransportLive } from "./webhooks/WebhookTransportLive.js"

/** Every driven port, from configuration, over the database the layer is given. */
export const PortsLive = Layer.mergeAll(
  SqlPortsLive,
  IdentityVerifierLive,
  WebhookTransportLive,
  DirectDebitLive.pipe(measuredPort(DirectDebit, "gocardless")),
  ProviderWebhookSignatureLive,
  BillingTermsLive,
  TaxAuthorityLive.pipe(measuredPort(TaxAuthority, "tax_authority")),
  FilingCheckHmrc,
  AppLinksLive,
  DocumentRendererPdf
).pipe(Layer.provideMerge(SystemLive))

const appOver = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  UseCasesLive.pipe(
    Layer.provideMerge(PortsLive),
    Layer.provideMerge(LookupCacheTtlLive),
    Layer.provideMerge(MigrationsLive),
    Layer.provideMerge(database)
  )

/** The use cases over the configured database, migrated when built. The server stands on it. */
export const AppLive = appOver(DatabaseLive)

/** As AppLive, over the embedded database of a running server when there is one: the admin CLI stands on it. */
export const AdminAppLive = appOver(SharedDatabaseLive)
