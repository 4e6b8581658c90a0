import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { TaxAuthorityMemory } from "@cisbook/testkit/TaxAuthorityFake"
import { FilingCheckMemory } from "@cisbook/testkit/FilingCheckMemory"
import { webhookTransport } from "@cisbook/adapters/webhooks/WebhookTransportLive"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { AppLinksFake } from "@cisbook/testkit/AppLinksFake"
import { BillingTermsFixed } from "@cisbook/testkit/BillingTermsFixed"
import { DirectDebitFake } from "@cisbook/testkit/DirectDebitFake"
import { DocumentRendererFake } from "@cisbook/testkit/DocumentRendererFake"
import { ProviderEventSignatureFake } from "@cisbook/testkit/ProviderEventSignatureFake"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import type { SqlClient } from "@effect/sql"
import { Layer } from "effect"

/** The use cases over the given (migrated) database. */
export const useCasesOver = <A, E>(database: Layer.Layer<A | SqlClient.SqlClient, E>) =>
  UseCasesLive.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        SqlPortsLive,
        identityVerifierFake({}),
        webhookTransport({ allowPrivateTargets: false }),
        TaxAuthorityMemory,
        FilingCheckMemory,
        AppLinksFake,
        DirectDebitFake,
        ProviderEventSignatureFake,
        BillingTermsFixed,
        DocumentRendererFake
      )
    ),
    Layer.provideMerge(SystemLive),
    Layer.provideMerge(database)
  )

/** The use cases over a throwaway database: on PostgreSQL (CISBOOK_TEST_DATABASE_URL) concurrent calls really overlap. */
export const UseCasesOverSql = useCasesOver(EphemeralDatabase)
