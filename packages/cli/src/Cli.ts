import { Command } from "@effect/cli"
import { ApiKeysCommand } from "./commands/ApiKeyCommands.js"
import { BillingCommand } from "./commands/BillingCommands.js"
import { ContactsCommand } from "./commands/ContactCommands.js"
import { DbCommand } from "./commands/DbCommands.js"
import { MailCommand } from "./commands/MailCommands.js"
import { ReturnsCommand } from "./commands/ReturnCommands.js"
import { TenantsCommand } from "./commands/TenantCommands.js"
import { UsersCommand } from "./commands/UserCommands.js"
import { WebhooksCommand } from "./commands/WebhookCommands.js"

export const Root = Command.make("cisbook").pipe(
  Command.withDescription("cisbook admin: the support team's tools, over the service's own use cases and database"),
  Command.withSubcommands([
    DbCommand,
    UsersCommand,
    TenantsCommand,
    ApiKeysCommand,
    ContactsCommand,
    WebhooksCommand,
    MailCommand,
    ReturnsCommand,
    BillingCommand
  ])
)

export const run = Command.run(Root, { name: "cisbook", version: "0.1.0" })
