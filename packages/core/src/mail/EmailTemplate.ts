import type { TemplateText } from "./DefaultTemplates.js"
import { defaultTemplates } from "./DefaultTemplates.js"
import type { EmailTemplateType } from "./EmailTemplateType.js"
import { placeholdersOf } from "./Placeholders.js"

/** A tenant's template of one type as the API shows it: what is in use, and the defaults. */
export interface EmailTemplate {
  readonly type: EmailTemplateType
  readonly subject: string
  readonly body: string
  readonly defaultSubject: string
  readonly defaultBody: string
  readonly isCustomised: boolean
  readonly placeholders: ReadonlyArray<string>
}

/** The template of the type, customised when `custom` is there. */
export const emailTemplate = (type: EmailTemplateType, custom: TemplateText | undefined): EmailTemplate => {
  const defaults = defaultTemplates[type]
  return {
    type,
    subject: custom?.subject ?? defaults.subject,
    body: custom?.body ?? defaults.body,
    defaultSubject: defaults.subject,
    defaultBody: defaults.body,
    isCustomised: custom !== undefined,
    placeholders: placeholdersOf[type]
  }
}

/** A subject and body equal to the defaults are no customisation. */
export const isDefault = (type: EmailTemplateType, text: TemplateText): boolean =>
  text.subject === defaultTemplates[type].subject && text.body === defaultTemplates[type].body
