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
      .handle("getEmailSettings", () => email.settings().pipe(Effect.map(settingsDto)))
      .handle("updateEmailSettings", ({ payload }) => email.setSettings(payload).pipe(Effect.map(settingsDto)))
      .handle("listEmailTemplates", () => email.templates().pipe(Effect.map((all) => all.map(templateDto))))
      .handle("getEmailTemplate", ({ path }) => email.template(path.type).pipe(Effect.map(templateDto)))
      .handle("updateEmailTemplate", ({ path, payload }) =>
        email.setTemplate(path.type, payload).pipe(Effect.map(templateDto))
      )
      .handle("resetEmailTemplate", ({ path }) => email.resetTemplate(path.type).pipe(Effect.map(templateDto)))
  })
)
