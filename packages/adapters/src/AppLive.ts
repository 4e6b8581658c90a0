import { UseCasesLive } from "@cisbook/core/UseCases"
import type { SqlClient } from "@effect/sql"
import { FilingCheck } from "@cisbook/core/taxauthority/FilingCheck"
import { Layer } from "effect"
import { BillingTermsLive } from "./billing/BillingTermsLive.js"
import { DocumentRendererPdf } from "./documents/DocumentRendererPdf.js"
import { DirectDebitLive } from "./gocardless/DirectDebitLive.js"
import { ProviderWebhookSignatureLive } from "./gocardless/GoCardlessWebhookSignature.js"
import { AppLinksLive } from "./AppLinksLive.js"
import { LookupCacheTtlLive } from "./LookupCacheTtlLive.js"
import { onFirstCall } from "./OnFirstCall.js"
import { IdentityVerifierLive } from "./identity/JwksIdentityVerifier.js"
import { DatabaseLive, SharedDatabaseLive } from "./sql/Database.js"
import { MigrationsLive } from "./sql/Migrations.js"
import { SqlPortsLive } from "./sql/SqlPortsLive.js"
import { SystemLive } from "./system/SystemLive.js"
import { TaxAuthorityLive } from "./taxauthority/TaxAuthorityLive.js"
import { WebhookTransportLive } from "./webhooks/WebhookTransportLive.js"

/**
 * Every driven port, from configuration, over the database the layer is given.
 *
 * The adapters that bring heavy libraries are imported at the first call of their port (see
 * onFirstCall), so that a process that does not call them does not load them: most admin commands
 * (docs/benchmarks.md, issue 31). Their configuration is still read, and refused, at start. They are:
 * - the tax authority (TaxAuthorityLive): GovTalk, the IRmark's XML canonicalisation (xmldom,
 *   xml-crypto, xpath), fast-xml-parser, and the provider-call metrics (prom-client);
 * - direct debits (DirectDebitLive): GoCardless's HTTP client and the same metrics;
 * - the filing check: the same XML libraries and HMRC's schemas through libxml2.
 */
export const PortsLive = Layer.mergeAll(
  SqlPortsLive,
  IdentityVerifierLive,
  WebhookTransportLive,
  DirectDebitLive,
  ProviderWebhookSignatureLive,
  BillingTermsLive,
  TaxAuthorityLive,
  onFirstCall(FilingCheck, () => import("./taxauthority/govtalk/FilingCheckHmrc.js").then((m) => m.FilingCheckHmrc)),
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
