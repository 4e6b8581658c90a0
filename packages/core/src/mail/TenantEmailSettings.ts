import { Effect, Option, Schema } from "effect"
import { type FieldErrors, type NotFound, ValidationFailed } from "../Errors.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { EmailSettings } from "./EmailSettings.js"
import type { EmailSettingsInput, EmailTemplateInput } from "./EmailSettingsInput.js"
import { type EmailTemplate, emailTemplate, isDefault } from "./EmailTemplate.js"
import { EmailTemplateType } from "./EmailTemplateType.js"
import { placeholdersIn, placeholdersOf } from "./Placeholders.js"
import { EmailSettingsRepo } from "./EmailSettingsRepo.js"
import { describeFieldErrors } from "../Validation.js"

const isTemplateType = Schema.is(EmailTemplateType)

const typeProblem = (type: string) =>
  ValidationFailed.one(
    "type",
    `Unknown email template type ${JSON.stringify(type)}: use one of ${EmailTemplateType.literals.join(", ")}`
  )

/** Each placeholder the text uses that its type does not know, as a message for the member. */
const unknownPlaceholders = (type: EmailTemplateType, text: string): ReadonlyArray<string> => {
  const known: ReadonlyArray<string> = placeholdersOf[type]
  return placeholdersIn(text)
    .filter((name) => !known.includes(name))
    .map((name) => `Unknown placeholder {{${name}}}: ${type} templates can use ${known.join(", ")}`)
}

/** A tenant's email settings and templates. */
export class TenantEmailSettings extends Effect.Service<TenantEmailSettings>()("core/TenantEmailSettings", {
  effect: Effect.gen(function* () {
    const repo = yield* EmailSettingsRepo

    const typeOf = (type: string) => (isTemplateType(type) ? Effect.succeed(type) : Effect.fail(typeProblem(type)))

    const settings = (): Effect.Effect<EmailSettings, NotFound, CurrentTenant> =>
      CurrentTenant.pipe(
        Effect.flatMap(({ tenant }) => repo.getSettings(tenant.id)),
        Effect.map(Option.getOrElse(() => EmailSettings.defaults))
      )

    const setSettings = (input: EmailSettingsInput): Effect.Effect<EmailSettings, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const { autoEmailStatements, signature } = input
        const stored = new EmailSettings({
          signature: signature === null || signature.trim() === "" ? null : signature,
          autoEmailStatements
        })
        yield* repo.setSettings(tenant.id, stored)
        return stored
      })

    const templates = (): Effect.Effect<ReadonlyArray<EmailTemplate>, NotFound, CurrentTenant> =>
      CurrentTenant.pipe(
        Effect.flatMap(({ tenant }) => repo.listTemplates(tenant.id)),
        Effect.map((custom) =>
          EmailTemplateType.literals.map((type) =>
            emailTemplate(
              type,
              custom.find((t) => t.type === type)
            )
          )
        )
      )

    const template = (type: string): Effect.Effect<EmailTemplate, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const all = yield* templates()
        const known = yield* typeOf(type)
        return all.find((t) => t.type === known)!
      })

    /** Customises the type's template; a subject and body equal to the defaults un-customise it. */
    const setTemplate = (
      type: string,
      text: EmailTemplateInput
    ): Effect.Effect<EmailTemplate, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const known = yield* typeOf(type)
        const errors: FieldErrors = Object.fromEntries(
          (["subject", "body"] as const)
            .map((member) => [member, unknownPlaceholders(known, text[member])] as const)
            .filter(([, messages]) => messages.length > 0)
        )
        if (Object.keys(errors).length > 0) {
          return yield* new ValidationFailed({ detail: describeFieldErrors(errors), errors })
        }
        if (isDefault(known, text)) {
          yield* repo.deleteTemplate(tenant.id, known)
          return emailTemplate(known, undefined)
        }
        yield* repo.saveTemplate(tenant.id, { type: known, ...text })
        return emailTemplate(known, text)
      })

    /** Restores the type's defaults. */
    const resetTemplate = (type: string): Effect.Effect<EmailTemplate, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const known = yield* typeOf(type)
        yield* repo.deleteTemplate(tenant.id, known)
        return emailTemplate(known, undefined)
      })

    return { settings, setSettings, templates, template, setTemplate, resetTemplate } as const
  })
}) {}
