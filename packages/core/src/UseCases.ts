import { Layer } from "effect"
import { ApiKeys } from "./usecases/ApiKeys.js"
import { BillingProfiles } from "./usecases/BillingProfiles.js"
import { Mandates } from "./usecases/Mandates.js"
import { Authentication } from "./usecases/Authentication.js"
import { ContactImport } from "./usecases/ContactImport.js"
import { Contacts } from "./usecases/Contacts.js"
import { MonthlyReturns } from "./usecases/MonthlyReturns.js"
import { PurchaseInvoices } from "./usecases/PurchaseInvoices.js"
import { MailSupport } from "./usecases/MailSupport.js"
import { SalesInvoiceMail } from "./usecases/SalesInvoiceMail.js"
import { SalesInvoices } from "./usecases/SalesInvoices.js"
import { TenantEmailSettings } from "./usecases/TenantEmailSettings.js"
import { Tenants } from "./usecases/Tenants.js"
import { TenantSettings } from "./usecases/TenantSettings.js"
import { Users } from "./usecases/Users.js"
import { WebhookDeliveries } from "./usecases/WebhookDeliveries.js"
import { WebhookDispatch } from "./usecases/WebhookDispatch.js"
import { Webhooks } from "./usecases/Webhooks.js"

/** Every use case, over whichever ports the composition root provides. */
export const UseCasesLive = Layer.mergeAll(
  TenantSettings.Default,
  TenantEmailSettings.Default,
  Contacts.Default,
  SalesInvoices.Default,
  SalesInvoiceMail.Default,
  MailSupport.Default,
  PurchaseInvoices.Default,
  ContactImport.Default,
  Webhooks.Default,
  WebhookDeliveries.Default,
  WebhookDispatch.Default,
  MonthlyReturns.Default,
  BillingProfiles.Default,
  Mandates.Default
).pipe(
  Layer.provideMerge(Layer.mergeAll(Tenants.Default, Authentication.Default)),
  Layer.provideMerge(ApiKeys.Default),
  Layer.provideMerge(Users.Default)
)
