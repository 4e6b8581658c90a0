import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import type { EmailSettings } from "@cisbook/core/mail/EmailSettings"
import type { EmailTemplate } from "@cisbook/core/mail/EmailTemplate"
import { TenantEmailSettings } from "@cisbook/core/mail/TenantEmailSettings"
import { CisbookApi } from "@cisbook/sdk/Api"
import { EmailSettingsDto, EmailTemplateDto } from "@cisbook/sdk/EmailSettingsDtos"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"

const settingsDto = (settings: EmailSettings) => new EmailSettingsDto({ ...settings })
const templateDto = (template: EmailTemplate) => new EmailTemplateDto(template)

export const EmailSettingsHandlers = HttpApiBuilder.group(CisbookApi, "emailSettings", (handlers) =>
  Effect.gen(function* () {
    const email = yield* TenantEmailSettings
    return handlers
      .handle("getEmailSettings", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.settings(user, path.tenant)),
          Effect.map(settingsDto)
        )
      )
      .handle("updateEmailSettings", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.setSettings(user, path.tenant, payload)),
          Effect.map(settingsDto)
        )
      )
      .handle("listEmailTemplates", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.templates(user, path.tenant)),
          Effect.map((all) => all.map(templateDto))
        )
      )
      .handle("getEmailTemplate", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.template(user, path.tenant, path.type)),
          Effect.map(templateDto)
        )
      )
      .handle("updateEmailTemplate", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.setTemplate(user, path.tenant, path.type, payload)),
          Effect.map(templateDto)
        )
      )
      .handle("resetEmailTemplate", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.resetTemplate(user, path.tenant, path.type)),
          Effect.map(templateDto)
        )
      )
  })
)
