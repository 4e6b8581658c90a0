import { AppLinksLive } from "@cisbook/adapters/AppLinksLive"
import { IdentityVerifierLive } from "@cisbook/adapters/identity/JwksIdentityVerifier"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { TaxAuthorityMemory } from "@cisbook/testkit/TaxAuthorityFake"
import { FilingCheckMemory } from "@cisbook/testkit/FilingCheckMemory"
import { webhookTransport } from "@cisbook/adapters/webhooks/WebhookTransportLive"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { BillingTermsFixed } from "@cisbook/testkit/BillingTermsFixed"
import { DirectDebitFake } from "@cisbook/testkit/DirectDebitFake"
import { DocumentRendererFake } from "@cisbook/testkit/DocumentRendererFake"
import { ProviderEventSignatureFake } from "@cisbook/testkit/ProviderEventSignatureFake"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { type Database, sqlOver } from "./Databases.js"

/**
 * Runs a worker benchmark over the use cases and SQL ports on the database (private webhook
 * targets allowed, as its receivers are on loopback), warnings only and no spans, as the server
 * runs them, closing the database after.
 */
export const runOver =
  (database: Database) =>
  <A, E, R>(measure: Effect.Effect<A, E, R>) => {
    const Sql = sqlOver(database)
    const App = UseCasesLive.pipe(
      Layer.provideMerge(
        Layer.mergeAll(
          SqlPortsLive,
          IdentityVerifierLive,
          webhookTransport({ allowPrivateTargets: true }),
          DirectDebitFake,
          ProviderEventSignatureFake,
          BillingTermsFixed,
          DocumentRendererFake,
          TaxAuthorityMemory,
          FilingCheckMemory,
          AppLinksLive
        )
      ),
      Layer.provideMerge(SystemLive),
      Layer.provideMerge(Sql)
    )
    return measure.pipe(
      Effect.provide(App),
      Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)),
      // As the server runs its workers: without a tracer exporter, so without spans.
      Effect.withTracerEnabled(false),
      Effect.ensuring(Effect.promise(() => database.close()))
    )
  }
