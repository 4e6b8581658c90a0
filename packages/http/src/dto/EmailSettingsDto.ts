import type { EmailSettings } from "@cisbook/core/mail/EmailSettings"
import type { EmailTemplate } from "@cisbook/core/mail/EmailTemplate"
import { EmailSettingsDto, EmailTemplateDto } from "@cisbook/sdk/EmailSettingsDtos"

export const emailSettingsDto = (settings: EmailSettings) => new EmailSettingsDto({ ...settings })

/**
 * A template as its list shows it. Built without the constructor's validation, as a list's items
 * are (the members are the domain's, already valid, and the endpoint's schema checks them again as
 * it encodes).
 */
export const emailTemplateDto = (template: EmailTemplate) =>
  new EmailTemplateDto(
    {
      type: template.type,
      subject: template.subject,
      body: template.body,
      defaultSubject: template.defaultSubject,
      defaultBody: template.defaultBody,
      isCustomised: template.isCustomised,
      placeholders: template.placeholders
    },
    true
  )
