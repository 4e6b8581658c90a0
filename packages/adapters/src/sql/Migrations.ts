import { Migrator } from "@effect/sql"
import { Effect, Layer } from "effect"
import foundation from "./migrations/0001_foundation.js"
import eventsAndSettings from "./migrations/0002_events_and_settings.js"
import contacts from "./migrations/0003_contacts.js"
import webhooks from "./migrations/0004_webhooks.js"
import invoices from "./migrations/0005_invoices.js"
import mail from "./migrations/0006_mail.js"
import monthlyReturns from "./migrations/0007_monthly_returns.js"
import billing from "./migrations/0008_billing.js"
import verificationRequests from "./migrations/0009_verification_requests.js"
import connections from "./migrations/0010_connections.js"
import billingInvoices from "./migrations/0011_billing_invoices.js"
import idempotencyKeys from "./migrations/0012_idempotency_keys.js"
import webhookHealth from "./migrations/0013_webhook_health.js"
import rateLimits from "./migrations/0014_rate_limits.js"
import returnCorrelation from "./migrations/0015_return_correlation.js"
import cisScheme from "./migrations/0016_cis_scheme.js"
import govTalkEngine from "./migrations/0017_govtalk_engine.js"
import providerEvents from "./migrations/0018_provider_events.js"
import goCardlessSandboxEvents from "./migrations/0019_gocardless_sandbox_events.js"
import failedPayments from "./migrations/0020_failed_payments.js"
import hmrcCredentials from "./migrations/0021_hmrc_credentials.js"
import govTalkResponseEndpoints from "./migrations/0022_govtalk_response_endpoints.js"
import partnerUtr from "./migrations/0023_partner_utr.js"
import govTalkFinalAnswers from "./migrations/0024_govtalk_final_answers.js"
import statements from "./migrations/0025_statements.js"
import purchasePayments from "./migrations/0026_purchase_payments.js"
import declarationsAndRegistration from "./migrations/0027_declarations_and_registration.js"
import importAnalyses from "./migrations/0028_import_analyses.js"
import paymentReadAt from "./migrations/0029_payment_read_at.js"
import eventDataJson from "./migrations/0030_event_data_json.js"
import { checkMigrationHistory, isCurrent, type MigrationRow } from "./MigrationHistory.js"

/** Every migration this version knows, by its `NNNN_name`: the schema it needs. */
export const KNOWN_MIGRATIONS = {
  "0001_foundation": foundation,
  "0002_events_and_settings": eventsAndSettings,
  "0003_contacts": contacts,
  "0004_webhooks": webhooks,
  "0005_invoices": invoices,
  "0006_mail": mail,
  "0007_monthly_returns": monthlyReturns,
  "0008_billing": billing,
  "0009_verification_requests": verificationRequests,
  "0010_connections": connections,
  "0011_billing_invoices": billingInvoices,
  "0012_idempotency_keys": idempotencyKeys,
  "0013_webhook_health": webhookHealth,
  "0014_rate_limits": rateLimits,
  "0015_return_correlation": returnCorrelation,
  "0016_cis_scheme": cisScheme,
  "0017_govtalk_engine": govTalkEngine,
  "0018_provider_events": providerEvents,
  "0019_gocardless_sandbox_events": goCardlessSandboxEvents,
  "0020_failed_payments": failedPayments,
  "0021_hmrc_credentials": hmrcCredentials,
  "0022_govtalk_response_endpoints": govTalkResponseEndpoints,
  "0023_partner_utr": partnerUtr,
  "0024_govtalk_final_answers": govTalkFinalAnswers,
  "0025_statements": statements,
  "0026_purchase_payments": purchasePayments,
  "0027_declarations_and_registration": declarationsAndRegistration,
  "0028_import_analyses": importAnalyses,
  "0029_payment_read_at": paymentReadAt,
  "0030_event_data_json": eventDataJson
}

const known = Object.keys(KNOWN_MIGRATIONS).map((key): MigrationRow => {
  const [, id = "", name = ""] = /^(\d+)_(.+)$/.exec(key) ?? []
  return [Number(id), name]
})

const run = Migrator.make({})({ loader: Migrator.fromRecord(KNOWN_MIGRATIONS) })

/**
 * Brings the schema up to date; the migrations that ran, as [id, name]. Safe to run from any
 * number of processes at once: the migrator locks its table, and a process that loses the
 * race to create that table on a fresh database tries again. Refuses a database whose applied
 * migrations the migrator cannot bring up to date (see checkMigrationHistory), naming them. A
 * database with every migration applied (every start but the first) costs the history's read
 * alone: the migrator, with its table lock and transaction, runs only when there is work.
 */
export const migrate = checkMigrationHistory(known).pipe(
  Effect.flatMap((applied) =>
    isCurrent(applied, known)
      ? Effect.succeed<ReadonlyArray<MigrationRow>>([])
      : run.pipe(Effect.retry({ times: 1, while: (error) => error._tag === "SqlError" }))
  )
)

/** Migrates the database when the layer is built. */
export const MigrationsLive = Layer.effectDiscard(
  migrate.pipe(
    Effect.tap((ran) =>
      ran.length === 0
        ? Effect.logDebug("The database schema is up to date")
        : Effect.logInfo(`Migrated the database: ${ran.map(([id, name]) => `${id}_${name}`).join(", ")}`)
    )
  )
)
