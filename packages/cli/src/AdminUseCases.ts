import { CredentialsCipherLive } from "@cisbook/adapters/credentials/CredentialsKeyConfig"
import { BillingTermsLive } from "@cisbook/adapters/billing/BillingTermsLive"
import { DocumentRendererPdf } from "@cisbook/adapters/documents/DocumentRendererPdf"
import { DirectDebitBulkLive, DirectDebitLive } from "@cisbook/adapters/gocardless/DirectDebitLive"
import { ProviderEventSignatureLive } from "@cisbook/adapters/gocardless/GoCardlessNotificationSignature"
import { ApiKeyRepoSql } from "@cisbook/adapters/sql/ApiKeyRepoSql"
import { BillingInvoiceRepoSql } from "@cisbook/adapters/sql/BillingInvoiceRepoSql"
import { BillingProfileRepoSql } from "@cisbook/adapters/sql/BillingProfileRepoSql"
import { ImportAnalysisRepoSql } from "@cisbook/adapters/sql/ImportAnalysisRepoSql"
import { ContactRepoSql } from "@cisbook/adapters/sql/ContactRepoSql"
import { DeliveryRepoSql } from "@cisbook/adapters/sql/DeliveryRepoSql"
import { EventOutboxSql } from "@cisbook/adapters/sql/EventOutboxSql"
import { HmrcCredentialsRepoSql } from "@cisbook/adapters/sql/HmrcCredentialsRepoSql"
import { MailOutboxSql } from "@cisbook/adapters/sql/MailOutboxSql"
import { MandateRepoSql } from "@cisbook/adapters/sql/MandateRepoSql"
import { MonthlyReturnRepoSql } from "@cisbook/adapters/sql/MonthlyReturnRepoSql"
import { ProviderEventInboxSql } from "@cisbook/adapters/sql/ProviderEventInboxSql"
import { SubcontractorPaymentsSql } from "@cisbook/adapters/sql/SubcontractorPaymentsSql"
import { TenantRepoSql } from "@cisbook/adapters/sql/TenantRepoSql"
import { TenantSettingsRepoSql } from "@cisbook/adapters/sql/TenantSettingsRepoSql"
import { TransactorSql } from "@cisbook/adapters/sql/TransactorSql"
import { UserRepoSql } from "@cisbook/adapters/sql/UserRepoSql"
import { VerificationQueueSql } from "@cisbook/adapters/sql/VerificationQueueSql"
import { WebhookRepoSql } from "@cisbook/adapters/sql/WebhookRepoSql"
import { FilingCheckLive } from "@cisbook/adapters/taxauthority/FilingCheckLive"
import { WebhookTransportLive } from "@cisbook/adapters/webhooks/WebhookTransportLive"
import { ApiKeys } from "@cisbook/core/apikeys/ApiKeys"
import { BillingInvoices } from "@cisbook/core/billing/billinginvoices/BillingInvoices"
import { BillingRun } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { WaitingInvoicesLive } from "@cisbook/core/billing/billinginvoices/WaitingInvoicesLive"
import { BillingProfiles } from "@cisbook/core/billing/mandates/BillingProfiles"
import { MandateCompletion } from "@cisbook/core/billing/mandates/MandateCompletion"
import { Mandates } from "@cisbook/core/billing/mandates/Mandates"
import { ProviderEventReceiving } from "@cisbook/core/billing/providerevents/ProviderEventReceiving"
import { ContactImport } from "@cisbook/core/contacts/ContactImport"
import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { HeldForCredentialsLive } from "@cisbook/core/held/HeldForCredentialsLive"
import { SchemeCorrectionsLive } from "@cisbook/core/held/SchemeCorrectionsLive"
import { MailSupport } from "@cisbook/core/mail/MailSupport"
import { Obligations } from "@cisbook/core/returns/Obligations"
import { MonthDeductionsFromPayments } from "@cisbook/core/returns/MonthDeductionsFromPayments"
import { MonthlyReturns } from "@cisbook/core/returns/MonthlyReturns"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { TenantSettings } from "@cisbook/core/tenants/TenantSettings"
import { Users } from "@cisbook/core/users/Users"
import { Verifications } from "@cisbook/core/verification/Verifications"
import { WebhookDeliveries } from "@cisbook/core/webhooks/WebhookDeliveries"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { Layer } from "effect"

/*
 * The use cases the admin commands use, each over the adapters of the ports it uses and nothing
 * else (its own layer's requirements, which the compiler checks). A command builds the ones it
 * names (see `admin`), not the whole application: most commands touch one or two tables, and
 * building every use case and port took a fifth of a command's time (docs/benchmarks.md,
 * issue 31). The server builds them all (AppLive). A layer used by several (UsersLive,
 * TransactorSql, ...) is built once per command: Effect memoises layers by reference.
 */

const HmrcCredentialsRepoLive = HmrcCredentialsRepoSql.pipe(Layer.provide(CredentialsCipherLive))

export const UsersLive = Users.Default.pipe(Layer.provide(UserRepoSql))

/** Also what `asSupport` needs, to act for a tenant. */
export const TenantsLive = Tenants.Default.pipe(Layer.provide(Layer.merge(UsersLive, TenantRepoSql)))

/** What releasing a tenant's held returns and verifications touches (HeldForCredentials, SchemeCorrections). */
const HeldPorts = Layer.mergeAll(MonthlyReturnRepoSql, VerificationQueueSql, ContactRepoSql, EventOutboxSql)

/** A corrected CIS scheme registration sends again what was held for the tenant's credentials. */
export const TenantSettingsLive = TenantSettings.Default.pipe(
  Layer.provide(
    Layer.mergeAll(
      TenantSettingsRepoSql,
      SchemeCorrectionsLive.pipe(Layer.provide(Layer.merge(HeldPorts, HmrcCredentialsRepoLive))),
      TransactorSql
    )
  )
)

export const HmrcCredentialsSettingsLive = HmrcCredentialsSettings.Default.pipe(
  Layer.provide(
    Layer.mergeAll(HmrcCredentialsRepoLive, HeldForCredentialsLive.pipe(Layer.provide(HeldPorts)), TransactorSql)
  )
)

export const ApiKeysLive = ApiKeys.Default.pipe(Layer.provide(ApiKeyRepoSql))

export const ContactImportLive = ContactImport.Default.pipe(
  Layer.provide(Layer.mergeAll(ContactRepoSql, EventOutboxSql, TransactorSql, ImportAnalysisRepoSql))
)

export const VerificationsLive = Verifications.Default.pipe(
  Layer.provide(
    Layer.mergeAll(
      ContactRepoSql,
      EventOutboxSql,
      FilingCheckLive,
      HmrcCredentialsRepoLive,
      TenantSettingsRepoSql,
      TransactorSql,
      VerificationQueueSql
    )
  )
)

export const WebhooksLive = Webhooks.Default.pipe(
  Layer.provide(Layer.mergeAll(WebhookRepoSql, DeliveryRepoSql, TransactorSql, WebhookTransportLive))
)

export const WebhookDeliveriesLive = WebhookDeliveries.Default.pipe(
  Layer.provide(Layer.merge(WebhookRepoSql, DeliveryRepoSql))
)

export const MailSupportLive = MailSupport.Default.pipe(Layer.provide(MailOutboxSql))

/** A tenant's obligations: its returns and registration, with the months' drafted deductions. */
export const ObligationsLive = Obligations.Default.pipe(
  Layer.provide(
    Layer.mergeAll(
      MonthlyReturnRepoSql,
      TenantSettingsRepoSql,
      MonthDeductionsFromPayments.pipe(Layer.provide(SubcontractorPaymentsSql))
    )
  )
)

export const MonthlyReturnsLive = MonthlyReturns.Default.pipe(
  Layer.provide(
    Layer.mergeAll(
      ContactRepoSql,
      FilingCheckLive,
      HmrcCredentialsRepoLive,
      MonthlyReturnRepoSql,
      SubcontractorPaymentsSql,
      TenantSettingsRepoSql,
      TransactorSql
    )
  )
)

/** A completed mandate puts forward the invoices waiting for it. */
const MandateCompletionLive = MandateCompletion.Default.pipe(
  Layer.provide(WaitingInvoicesLive),
  Layer.provide(Layer.mergeAll(MandateRepoSql, BillingInvoiceRepoSql, DirectDebitLive))
)

export const BillingProfilesLive = BillingProfiles.Default.pipe(
  Layer.provide(Layer.merge(BillingProfileRepoSql, MandateRepoSql))
)

export const MandatesLive = Mandates.Default.pipe(
  Layer.provide(Layer.mergeAll(MandateCompletionLive, BillingProfileRepoSql, MandateRepoSql, DirectDebitLive))
)

/** The billing run, its GoCardless calls paced as bulk work (DirectDebitBulkLive), so that users' requests keep their share. */
export const BillingRunLive = BillingRun.Default.pipe(
  Layer.provide(WaitingInvoicesLive),
  Layer.provide(
    Layer.mergeAll(
      BillingInvoiceRepoSql,
      BillingProfileRepoSql,
      BillingTermsLive,
      DirectDebitBulkLive,
      DocumentRendererPdf,
      MandateRepoSql,
      TransactorSql,
      UserRepoSql
    )
  )
)

export const BillingInvoicesLive = BillingInvoices.Default.pipe(
  Layer.provide(Layer.merge(BillingInvoiceRepoSql, DirectDebitLive))
)

export const ProviderEventReceivingLive = ProviderEventReceiving.Default.pipe(
  Layer.provide(Layer.mergeAll(ProviderEventInboxSql, ProviderEventSignatureLive, TransactorSql))
)
