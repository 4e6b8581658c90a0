import { TenantEmailSettings } from "@cisbook/core/mail/TenantEmailSettings"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { emailSettingsDto, emailTemplateDto } from "../dto/EmailSettingsDto.js"

export const EmailSettingsHandlers = HttpApiBuilder.group(CisbookApi, "emailSettings", (handlers) =>
  Effect.gen(function* () {
    const email = yield* TenantEmailSettings
    return handlers
      .handle("getEmailSettings", () => email.settings().pipe(Effect.map(emailSettingsDto)))
      .handle("updateEmailSettings", ({ payload }) => email.setSettings(payload).pipe(Effect.map(emailSettingsDto)))
      .handle("listEmailTemplates", () => email.templates().pipe(Effect.map((all) => all.map(emailTemplateDto))))
      .handle("getEmailTemplate", ({ path }) => email.template(path.type).pipe(Effect.map(emailTemplateDto)))
      .handle("updateEmailTemplate", ({ path, payload }) =>
        email.setTemplate(path.type, payload).pipe(Effect.map(emailTemplateDto))
      )
      .handle("resetEmailTemplate", ({ path }) => email.resetTemplate(path.type).pipe(Effect.map(emailTemplateDto)))
  })
)
