import type { EmailSettings } from "@cisbook/core/mail/EmailSettings"
import type { EmailTemplate } from "@cisbook/core/mail/EmailTemplate"
import { EmailSettingsDto, EmailTemplateDto } from "@cisbook/sdk/EmailSettingsDtos"

export const emailSettingsDto = (settings: EmailSettings) => new EmailSettingsDto({ ...settings })

export const emailTemplateDto = (template: EmailTemplate) => new EmailTemplateDto(template)
