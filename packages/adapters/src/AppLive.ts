import { UseCasesLive } from "@cisbook/core/UseCases"
import { Layer } from "effect"
import { WaitingInvoicesNone } from "./billing/WaitingInvoicesNone.js"
import { DirectDebitLive } from "./gocardless/DirectDebitLive.js"
import { LookupCacheTtlLive } from "./LookupCacheTtlLive.js"
import { IdentityVerifierLive } from "./identity/JwksIdentityVerifier.js"
import { DatabaseLive } from "./sql/Database.js"
import { MigrationsLive } from "./sql/Migrations.js"
import { SqlPortsLive } from "./sql/SqlPortsLive.js"
import { SystemLive } from "./system/SystemLive.js"
import { WebhookTransportLive } from "./webhooks/WebhookTransportLive.js"

/** Every driven port, from configuration, over the database the layer is given. */
export const PortsLive = Layer.mergeAll(
  SqlPortsLive,
  IdentityVerifierLive,
  WebhookTransportLive,
  DirectDebitLive,
  WaitingInvoicesNone
).pipe(Layer.provideMerge(SystemLive))

/** The use cases over the configured database, migrated when built. Both binaries stand on it. */
export const AppLive = UseCasesLive.pipe(
  Layer.provideMerge(PortsLive),
  Layer.provideMerge(LookupCacheTtlLive),
  Layer.provideMerge(MigrationsLive),
  Layer.provideMerge(DatabaseLive)
)
