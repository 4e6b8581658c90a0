import { addEqualityTesters, describe, layer } from "@effect/vitest"
import type { Layer } from "effect"
import { apiKeyRepoContract } from "./ApiKeyRepoContract.js"
import { billingInvoiceRepoContract } from "./BillingInvoiceRepoContract.js"
import { billingProfileRepoContract, mandateRepoContract } from "./BillingReposContract.js"
import { connectionRepoContract } from "./ConnectionRepoContract.js"
import { contactActivityContract } from "./ContactActivityContract.js"
import { contactRepoBatchContract } from "./ContactRepoBatchContract.js"
import { contactRepoContract } from "./ContactRepoContract.js"
import { deliveryRepoContract, webhookHealthContract } from "./DeliveryRepoContract.js"
import { emailSettingsRepoContract } from "./EmailSettingsRepoContract.js"
import { eventOutboxContract } from "./EventOutboxContract.js"
import type { ContractPorts } from "./Fixtures.js"
import { hmrcCredentialsRepoContract } from "./HmrcCredentialsRepoContract.js"
import { idempotencyKeysContract } from "./IdempotencyKeysContract.js"
import { importAnalysisRepoContract } from "./ImportAnalysisRepoContract.js"
import { mailOutboxContract } from "./MailOutboxContract.js"
import { monthlyReturnRepoContract } from "./MonthlyReturnRepoContract.js"
import { providerEventInboxContract } from "./ProviderEventInboxContract.js"
import { purchaseInvoiceRepoContract } from "./PurchaseInvoiceRepoContract.js"
import { subcontractorPaymentsContract } from "./SubcontractorPaymentsContract.js"
import { receivedStatementRepoContract } from "./ReceivedStatementRepoContract.js"
import { returnStatementRepoContract } from "./ReturnStatementRepoContract.js"
import { salesInvoiceRepoContract } from "./SalesInvoiceRepoContract.js"
import { storageHealthContract } from "./StorageHealthContract.js"
import { tenantRepoContract } from "./TenantRepoContract.js"
import { tenantSettingsRepoContract } from "./TenantSettingsRepoContract.js"
import { transactorContract } from "./TransactorContract.js"
import { userRepoContract } from "./UserRepoContract.js"
import { verificationQueueContract } from "./VerificationQueueContract.js"
import { webhookRepoContract } from "./WebhookRepoContract.js"

/**
 * Registers every port contract against one implementation of the ports. The layer is built
 * once for all of them (a database that starts slowly starts once); each test makes its own
 * data, so tests do not see each other's.
 */
export const portContracts = <E>(name: string, ports: Layer.Layer<ContractPorts, E>) => {
  addEqualityTesters()
  layer(ports)(name, (it) => {
    describe("UserRepo", () => userRepoContract(it))
    describe("TenantRepo", () => tenantRepoContract(it))
    describe("ApiKeyRepo", () => apiKeyRepoContract(it))
    describe("Transactor", () => transactorContract(it))
    describe("EventOutbox", () => eventOutboxContract(it))
    describe("TenantSettingsRepo", () => tenantSettingsRepoContract(it))
    describe("HmrcCredentialsRepo", () => hmrcCredentialsRepoContract(it))
    describe("ContactRepo", () => contactRepoContract(it))
    describe("SalesInvoiceRepo", () => salesInvoiceRepoContract(it))
    describe("PurchaseInvoiceRepo", () => purchaseInvoiceRepoContract(it))
    describe("SubcontractorPayments", () => subcontractorPaymentsContract(it))
    describe("ContactActivity", () => contactActivityContract(it))
    describe("ContactRepo batches", () => contactRepoBatchContract(it))
    describe("ImportAnalysisRepo", () => importAnalysisRepoContract(it))
    describe("WebhookRepo", () => webhookRepoContract(it))
    describe("DeliveryRepo", () => deliveryRepoContract(it))
    describe("DeliveryRepo and webhook health", () => webhookHealthContract(it))
    describe("EmailSettingsRepo", () => emailSettingsRepoContract(it))
    describe("MailOutbox", () => mailOutboxContract(it))
    describe("MonthlyReturnRepo", () => monthlyReturnRepoContract(it))
    describe("ReturnStatementRepo", () => returnStatementRepoContract(it))
    describe("ReceivedStatementRepo", () => receivedStatementRepoContract(it))
    describe("BillingProfileRepo", () => billingProfileRepoContract(it))
    describe("MandateRepo", () => mandateRepoContract(it))
    describe("BillingInvoiceRepo", () => billingInvoiceRepoContract(it))
    describe("VerificationQueue", () => verificationQueueContract(it))
    describe("ConnectionRepo", () => connectionRepoContract(it))
    describe("IdempotencyKeys", () => idempotencyKeysContract(it))
    describe("StorageHealth", () => storageHealthContract(it))
    describe("ProviderEventInbox", () => providerEventInboxContract(it))
  })
}
