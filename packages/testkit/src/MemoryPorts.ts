import { Layer } from "effect"
import { ApiKeyRepoMemory } from "./ApiKeyRepoMemory.js"
import { BillingInvoiceRepoMemory } from "./BillingInvoiceRepoMemory.js"
import { BillingProfileRepoMemory } from "./BillingProfileRepoMemory.js"
import { DirectDebitFake } from "./DirectDebitFake.js"
import { MandateRepoMemory } from "./MandateRepoMemory.js"
import { BillingTermsFixed } from "./BillingTermsFixed.js"
import { DocumentRendererFake } from "./DocumentRendererFake.js"
import { AppLinksFake } from "./AppLinksFake.js"
import { ConnectionRepoMemory, ConnectionStore } from "./ConnectionRepoMemory.js"
import { ContactActivityMemory } from "./ContactActivityMemory.js"
import { ContactRepoMemory } from "./ContactRepoMemory.js"
import { ImportAnalysisRepoMemory } from "./ImportAnalysisRepoMemory.js"
import { DeliveryRepoMemory } from "./DeliveryRepoMemory.js"
import { DestinationGuardMemory } from "./DestinationGuardFake.js"
import { EmailSettingsRepoMemory } from "./EmailSettingsRepoMemory.js"
import { HmrcCredentialsRepoMemory } from "./HmrcCredentialsRepoMemory.js"
import { IdempotencyKeysMemory } from "./IdempotencyKeysMemory.js"
import { EventOutboxMemory, OutboxStore, RecordedEventsMemory } from "./EventOutboxMemory.js"
import { MailOutboxMemory } from "./MailOutboxMemory.js"
import { MemoryJournal } from "./MemoryJournal.js"
import { MonthlyReturnRepoMemory, MonthlyReturnStore } from "./MonthlyReturnRepoMemory.js"
import { ProviderEventInboxMemory } from "./ProviderEventInboxMemory.js"
import { ProviderEventSignatureFake } from "./ProviderEventSignatureFake.js"
import { ReceivedStatementRepoMemory } from "./ReceivedStatementRepoMemory.js"
import { ReturnStatementRepoMemory } from "./ReturnStatementRepoMemory.js"
import { PurchaseInvoiceRepoMemory, PurchaseInvoiceStore } from "./PurchaseInvoiceRepoMemory.js"
import { SubcontractorPaymentsMemory } from "./SubcontractorPaymentsMemory.js"
import { SalesInvoiceRepoMemory, SalesInvoiceStore } from "./SalesInvoiceRepoMemory.js"
import { ClockManual, CryptoFake, IdGeneratorSequential, TransactorMemory } from "./SystemFakes.js"
import { StorageHealthMemory } from "./StorageHealthMemory.js"
import { TenantRepoMemory, TenantStore } from "./TenantRepoMemory.js"
import { TenantSettingsRepoMemory } from "./TenantSettingsRepoMemory.js"
import { TaxAuthorityMemory } from "./TaxAuthorityFake.js"
import { FilingCheckMemory } from "./FilingCheckMemory.js"
import { UserRepoMemory } from "./UserRepoMemory.js"
import { VerificationQueueMemory } from "./VerificationQueueMemory.js"
import { WebhookRepoMemory } from "./WebhookRepoMemory.js"
import { WebhookSenderMemory } from "./WebhookSenderFake.js"
import { DeliveryStore, WebhookStore } from "./WebhookStores.js"

/** The memory stores ContactActivityMemory reads (invoices, connections), empty. */
export const InvoiceStoresMemory = Layer.mergeAll(
  SalesInvoiceStore.Default,
  PurchaseInvoiceStore.Default,
  ConnectionStore.Default
).pipe(Layer.provide(MemoryJournal.Default))

/** Every storage and system port, in memory (the identity verifier is chosen per test). */
export const MemoryPorts = Layer.mergeAll(EmailSettingsRepoMemory, MailOutboxMemory).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      TenantRepoMemory,
      ApiKeyRepoMemory,
      EventOutboxMemory,
      RecordedEventsMemory,
      TenantSettingsRepoMemory,
      HmrcCredentialsRepoMemory,
      ContactActivityMemory,
      ImportAnalysisRepoMemory,
      SalesInvoiceRepoMemory,
      PurchaseInvoiceRepoMemory,
      SubcontractorPaymentsMemory,
      WebhookRepoMemory,
      DeliveryRepoMemory,
      MonthlyReturnRepoMemory,
      ReturnStatementRepoMemory,
      ReceivedStatementRepoMemory,
      DestinationGuardMemory,
      WebhookSenderMemory,
      VerificationQueueMemory,
      TaxAuthorityMemory,
      FilingCheckMemory,
      ConnectionRepoMemory,
      AppLinksFake,
      BillingProfileRepoMemory,
      MandateRepoMemory,
      BillingInvoiceRepoMemory,
      DirectDebitFake,
      BillingTermsFixed,
      DocumentRendererFake,
      IdempotencyKeysMemory,
      StorageHealthMemory,
      ProviderEventInboxMemory,
      ProviderEventSignatureFake
    )
  ),
  Layer.provideMerge(ContactRepoMemory),
  Layer.provideMerge(
    Layer.mergeAll(
      OutboxStore.Default,
      SalesInvoiceStore.Default,
      PurchaseInvoiceStore.Default,
      WebhookStore.Default,
      DeliveryStore.Default,
      ConnectionStore.Default,
      TenantStore.Default,
      MonthlyReturnStore.Default
    )
  ),
  Layer.provideMerge(UserRepoMemory),
  Layer.provideMerge(Layer.mergeAll(ClockManual, IdGeneratorSequential, CryptoFake, TransactorMemory)),
  Layer.provide(MemoryJournal.Default)
)
