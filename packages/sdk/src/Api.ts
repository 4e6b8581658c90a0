import { HttpApi } from "@effect/platform"
import { everyAccessDeclared } from "./Access.js"
import { BillingApi } from "./BillingApi.js"
import { CisStatementsApi } from "./CisStatementsApi.js"
import { ConnectionsApi } from "./ConnectionsApi.js"
import { ContactImportApi } from "./ContactImportApi.js"
import { ContactsApi } from "./ContactsApi.js"
import { EmailSettingsApi } from "./EmailSettingsApi.js"
import { MeApi } from "./MeApi.js"
import { MonthlyReturnsApi } from "./MonthlyReturnsApi.js"
import { PurchaseInvoicesApi } from "./PurchaseInvoicesApi.js"
import { SalesInvoicesApi } from "./SalesInvoicesApi.js"
import { SettingsApi } from "./SettingsApi.js"
import { SystemApi } from "./SystemApi.js"
import { TenantsApi } from "./TenantsApi.js"
import { WebhooksApi } from "./WebhooksApi.js"

/**
 * The client's contract: every endpoint a client calls. The server implements it, adds what
 * only it has (the GoCardless webhook) and serves the OpenAPI document (/openapi.json).
 */
export class CisbookApi extends everyAccessDeclared(
  HttpApi.make("cisbook")
    .add(SystemApi)
    .add(MeApi)
    .add(TenantsApi)
    .add(SettingsApi)
    .add(EmailSettingsApi)
    .add(ContactsApi)
    .add(SalesInvoicesApi)
    .add(PurchaseInvoicesApi)
    .add(ContactImportApi)
    .add(WebhooksApi)
    .add(MonthlyReturnsApi)
    .add(BillingApi)
    .add(ConnectionsApi)
    .add(CisStatementsApi)
) {}
