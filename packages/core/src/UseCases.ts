import { Layer } from "effect"
import { ApiKeys } from "./apikeys/ApiKeys.js"
import { BillingInvoices } from "./billing/billinginvoices/BillingInvoices.js"
import { BillingProfiles } from "./billing/mandates/BillingProfiles.js"
import { BillingRun } from "./billing/billinginvoices/BillingRun.js"
import { ProviderEventHandling } from "./billing/providerevents/ProviderEventHandling.js"
import { ProviderEventReceiving } from "./billing/providerevents/ProviderEventReceiving.js"
import { WaitingInvoicesLive } from "./billing/billinginvoices/WaitingInvoicesLive.js"
import { Mandates } from "./billing/mandates/Mandates.js"
import { MandateCompletion } from "./billing/mandates/MandateCompletion.js"
import { Connections } from "./connections/Connections.js"
import { HmrcCredentialsSettings } from "./credentials/HmrcCredentialsSettings.js"
import { HeldForCredentialsLive } from "./held/HeldForCredentialsLive.js"
import { SchemeCorrectionsLive } from "./held/SchemeCorrectionsLive.js"
import { Authentication } from "./authentication/Authentication.js"
import { ContactImport } from "./contacts/ContactImport.js"
import { Contacts } from "./contacts/Contacts.js"
import { MonthDeductionsFromPayments } from "./returns/MonthDeductionsFromPayments.js"
import { MonthlyReturns } from "./returns/MonthlyReturns.js"
import { Obligations } from "./returns/Obligations.js"
import { ReturnStatements } from "./returns/ReturnStatements.js"
import { ReceivedStatements } from "./statements/ReceivedStatements.js"
import { StatementDelivery } from "./statements/StatementDelivery.js"
import { PurchaseInvoices } from "./invoices/PurchaseInvoices.js"
import { MailSupport } from "./mail/MailSupport.js"
import { TenantMailLive } from "./mail/TenantMailLive.js"
import { SalesInvoiceMail } from "./invoices/SalesInvoiceMail.js"
import { SalesInvoices } from "./invoices/SalesInvoices.js"
import { TenantEmailSettings } from "./mail/TenantEmailSettings.js"
import { Tenants } from "./tenants/Tenants.js"
import { TenantSettings } from "./tenants/TenantSettings.js"
import { Users } from "./users/Users.js"
import { Verifications } from "./verification/Verifications.js"
import { VerificationWork } from "./verification/VerificationWork.js"
import { WebhookDeliveries } from "./webhooks/WebhookDeliveries.js"
import { WebhookDispatch } from "./webhooks/WebhookDispatch.js"
import { Webhooks } from "./webhooks/Webhooks.js"

/** Every use case, over whichever ports the composition root provides. */
export const UseCasesLive = Layer.mergeAll(
  TenantSettings.Default,
  HmrcCredentialsSettings.Default,
  TenantEmailSettings.Default,
  SalesInvoices.Default,
  SalesInvoiceMail.Default,
  MailSupport.Default,
  PurchaseInvoices.Default,
  ContactImport.Default,
  Webhooks.Default,
  WebhookDeliveries.Default,
  WebhookDispatch.Default,
  MonthlyReturns.Default,
  Obligations.Default,
  ReturnStatements.Default,
  ReceivedStatements.Default,
  StatementDelivery.Default,
  BillingProfiles.Default,
  Mandates.Default,
  BillingInvoices.Default,
  BillingRun.Default,
  ProviderEventReceiving.Default,
  ProviderEventHandling.Default,
  VerificationWork.Default,
  Connections.Default
).pipe(
  Layer.provideMerge(MandateCompletion.Default),
  Layer.provideMerge(
    Layer.mergeAll(
      Contacts.Default,
      Verifications.Default,
      WaitingInvoicesLive,
      HeldForCredentialsLive,
      SchemeCorrectionsLive,
      MonthDeductionsFromPayments,
      TenantMailLive
    )
  ),
  Layer.provideMerge(Layer.mergeAll(Tenants.Default, Authentication.Default)),
  Layer.provideMerge(ApiKeys.Default),
  Layer.provideMerge(Users.Default)
)
