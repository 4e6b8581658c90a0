import { HttpApi, OpenApi } from "@effect/platform"
import { BillingApi } from "./BillingApi.js"
import { ConnectionsApi } from "./ConnectionsApi.js"
import { ContactImportApi } from "./ContactImportApi.js"
import { ContactsApi } from "./ContactsApi.js"
import { EmailSettingsApi } from "./EmailSettingsApi.js"
import { MeApi } from "./MeApi.js"
import { MonthlyReturnsApi } from "./MonthlyReturnsApi.js"
import { ProviderEventsApi } from "./ProviderEventsApi.js"
import { PurchaseInvoicesApi } from "./PurchaseInvoicesApi.js"
import { SalesInvoicesApi } from "./SalesInvoicesApi.js"
import { SettingsApi } from "./SettingsApi.js"
import { SystemApi } from "./SystemApi.js"
import { TenantsApi } from "./TenantsApi.js"
import { completeDocument } from "./OpenApiDocument.js"
import { WebhooksApi } from "./WebhooksApi.js"

export class CisbookApi extends HttpApi.make("cisbook")
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
  .add(ProviderEventsApi)
  .annotate(OpenApi.Title, "cisbook API")
  .annotate(OpenApi.Version, "v1")
  .annotate(
    OpenApi.Description,
    "The service behind a UK construction-industry tax (CIS) bookkeeping application. Errors are RFC 9457 problem details."
  )
  .annotate(OpenApi.Servers, [
    { url: "/", description: "The server that serves this document" },
    { url: "http://localhost:3000", description: "A server started with pnpm start on this machine" }
  ])
  .annotate(OpenApi.Transform, completeDocument) {}
