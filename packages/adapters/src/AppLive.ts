import { UseCasesLive } from "@cisbook/core/UseCases"
import { Layer } from "effect"
import { BillingTermsLive } from "./billing/BillingTermsLive.js"
import { DocumentRendererPdf } from "./documents/DocumentRendererPdf.js"
import { DirectDebitLive } from "./gocardless/DirectDebitLive.js"
import { ProviderEventSignatureLive } from "./gocardless/GoCardlessNotificationSignature.js"
import { AppLinksLive } from "./AppLinksLive.js"
import { LookupCacheTtlLive } from "./LookupCacheTtlLive.js"
import { IdentityVerifierLive } from "./identity/JwksIdentityVerifier.js"
import { DatabaseLive } from "./sql/Database.js"
import { MigrationsLive } from "./sql/Migrations.js"
import { SqlPortsLive } from "./sql/SqlPortsLive.js"
import { SystemLive } from "./system/SystemLive.js"
import { FilingCheckLive } from "./taxauthority/FilingCheckLive.js"
import { TaxAuthorityLive } from "./taxauthority/TaxAuthorityLive.js"
import { WebhookTransportLive } from "./webhooks/WebhookTransportLive.js"

/**
 * Every driven port, from configuration, over the database the layer is given.
 *
 * The adapters that bring heavy libraries are imported at the first call of their port (see
 * onFirstCall), so that a process that does not call them does not load them: the server until
 * their first call, and the admin commands that use them (docs/benchmarks.md, issue 31). Their
 * configuration is still read, and refused, when the layer is built. They are:
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
  ProviderEventSignatureLive,
  BillingTermsLive,
  TaxAuthorityLive,
  FilingCheckLive,
  AppLinksLive,
  DocumentRendererPdf
).pipe(Layer.provideMerge(SystemLive))

/** The use cases over the configured database, migrated when built. The server stands on it. */
export const AppLive = UseCasesLive.pipe(
  Layer.provideMerge(PortsLive),
  Layer.provideMerge(LookupCacheTtlLive),
  Layer.provideMerge(MigrationsLive),
  Layer.provideMerge(DatabaseLive)
)
