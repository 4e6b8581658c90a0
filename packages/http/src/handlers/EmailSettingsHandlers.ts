import { CurrentUser } from "@cisbook/core/users/CurrentUser"
import { TenantEmailSettings } from "@cisbook/core/mail/TenantEmailSettings"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { emailSettingsDto, emailTemplateDto } from "../dto/EmailSettingsDto.js"

export const EmailSettingsHandlers = HttpApiBuilder.group(CisbookApi, "emailSettings", (handlers) =>
  Effect.gen(function* () {
    const email = yield* TenantEmailSettings
    return handlers
      .handle("getEmailSettings", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.settings(user, path.tenant)),
          Effect.map(emailSettingsDto)
        )
      )
      .handle("updateEmailSettings", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.setSettings(user, path.tenant, payload)),
          Effect.map(emailSettingsDto)
        )
      )
      .handle("listEmailTemplates", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.templates(user, path.tenant)),
          Effect.map((all) => all.map(emailTemplateDto))
        )
      )
      .handle("getEmailTemplate", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.template(user, path.tenant, path.type)),
          Effect.map(emailTemplateDto)
        )
      )
      .handle("updateEmailTemplate", ({ path, payload }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.setTemplate(user, path.tenant, path.type, payload)),
          Effect.map(emailTemplateDto)
        )
      )
      .handle("resetEmailTemplate", ({ path }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => email.resetTemplate(user, path.tenant, path.type)),
          Effect.map(emailTemplateDto)
        )
      )
  })
)
