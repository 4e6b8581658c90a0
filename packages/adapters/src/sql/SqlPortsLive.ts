import { Layer } from "effect"
import { ApiKeyRepoSql } from "./ApiKeyRepoSql.js"
import { BillingInvoiceRepoSql } from "./BillingInvoiceRepoSql.js"
import { BillingProfileRepoSql } from "./BillingProfileRepoSql.js"
import { ConnectionRepoSql } from "./ConnectionRepoSql.js"
import { ContactActivitySql } from "./ContactActivitySql.js"
import { ContactRepoSql } from "./ContactRepoSql.js"
import { ImportAnalysisRepoSql } from "./ImportAnalysisRepoSql.js"
import { DeliveryRepoSql } from "./DeliveryRepoSql.js"
import { EmailSettingsRepoSql } from "./EmailSettingsRepoSql.js"
import { EventOutboxSql } from "./EventOutboxSql.js"
import { CredentialsCipherLive } from "../credentials/CredentialsKeyConfig.js"
import { HmrcCredentialsRepoSql } from "./HmrcCredentialsRepoSql.js"
import { IdempotencyKeysSql } from "./IdempotencyKeysSql.js"
import { MailOutboxSql } from "./MailOutboxSql.js"
import { MonthlyReturnRepoSql } from "./MonthlyReturnRepoSql.js"
import { MandateRepoSql } from "./MandateRepoSql.js"
import { ProviderEventInboxSql } from "./ProviderEventInboxSql.js"
import { PurchaseInvoiceRepoSql } from "./PurchaseInvoiceRepoSql.js"
import { SubcontractorPaymentsSql } from "./SubcontractorPaymentsSql.js"
import { ReceivedStatementRepoSql } from "./ReceivedStatementRepoSql.js"
import { ReturnStatementRepoSql } from "./ReturnStatementRepoSql.js"
import { SalesInvoiceRepoSql } from "./SalesInvoiceRepoSql.js"
import { StorageHealthSql } from "./StorageHealthSql.js"
import { TenantRepoSql } from "./TenantRepoSql.js"
import { TenantSettingsRepoSql } from "./TenantSettingsRepoSql.js"
import { TransactorSql } from "./TransactorSql.js"
import { UserRepoSql } from "./UserRepoSql.js"
import { VerificationQueueSql } from "./VerificationQueueSql.js"
import { WebhookRepoSql } from "./WebhookRepoSql.js"

/** The ports PostgreSQL implements, over the SqlClient, Clock and IdGenerator the composition root provides. */
export const SqlPortsLive = Layer.mergeAll(
  UserRepoSql,
  TenantRepoSql,
  ApiKeyRepoSql,
  TransactorSql,
  EventOutboxSql,
  TenantSettingsRepoSql,
  HmrcCredentialsRepoSql.pipe(Layer.provide(CredentialsCipherLive)),
  ContactRepoSql,
  ContactActivitySql,
  ImportAnalysisRepoSql,
  SalesInvoiceRepoSql,
  PurchaseInvoiceRepoSql,
  SubcontractorPaymentsSql,
  WebhookRepoSql,
  DeliveryRepoSql,
  EmailSettingsRepoSql,
  MailOutboxSql,
  MonthlyReturnRepoSql,
  ReturnStatementRepoSql,
  ReceivedStatementRepoSql,
  BillingProfileRepoSql,
  MandateRepoSql,
  BillingInvoiceRepoSql,
  VerificationQueueSql,
  ConnectionRepoSql,
  IdempotencyKeysSql,
  StorageHealthSql,
  ProviderEventInboxSql
)
