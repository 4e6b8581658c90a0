import { Context, type Effect, type Option } from "effect"
import type { Email } from "../Email.js"
import type { TenantId } from "../Ids.js"
import type { TemplateText } from "./DefaultTemplates.js"
import type { EmailSettings } from "./EmailSettings.js"
import type { EmailTemplateType } from "./EmailTemplateType.js"

/** A template the tenant customised. */
export interface CustomTemplate extends TemplateText {
  readonly type: EmailTemplateType
}

/** What a tenant's mail of one type is made from, read at once. */
export interface MailContext {
  readonly tenantName: string
  readonly tenantEmail: Email | null
  readonly signature: string | null
  /** None while the type is not customised. */
  readonly template: Option.Option<TemplateText>
}

/** A tenant's email settings and customised templates (a type not customised has no row). */
export class EmailSettingsRepo extends Context.Tag("core/EmailSettingsRepo")<
  EmailSettingsRepo,
  {
    /** None until first set. */
    readonly getSettings: (tenantId: TenantId) => Effect.Effect<Option.Option<EmailSettings>>
    readonly setSettings: (tenantId: TenantId, settings: EmailSettings) => Effect.Effect<void>
    readonly listTemplates: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<CustomTemplate>>
    readonly saveTemplate: (tenantId: TenantId, template: CustomTemplate) => Effect.Effect<void>
    readonly deleteTemplate: (tenantId: TenantId, type: EmailTemplateType) => Effect.Effect<void>
    /** The tenant must exist. */
    readonly mailContext: (tenantId: TenantId, type: EmailTemplateType) => Effect.Effect<MailContext>
  }
>() {}
