import { emailTemplate } from "@cisbook/core/mail/EmailTemplate"
import { EmailTemplateType } from "@cisbook/core/mail/EmailTemplateType"
import { EmailTemplateDto } from "@cisbook/sdk/EmailSettingsDtos"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { emailTemplateDto } from "../src/dto/EmailSettingsDto.js"

const encode = Schema.encodeSync(EmailTemplateDto)

const Customised = Schema.Struct({ subject: Schema.String, body: Schema.String })

// The DTO is built without the constructor's validation: the endpoint's encoding still checks it.
describe("emailTemplateDto", () => {
  it.prop(
    "encodes as the validated DTO does, for any type, default or customised",
    [EmailTemplateType, Schema.UndefinedOr(Customised)],
    ([type, custom]) => {
      const template = emailTemplate(type, custom)
      const validated = EmailTemplateDto.make({
        type: template.type,
        subject: template.subject,
        body: template.body,
        defaultSubject: template.defaultSubject,
        defaultBody: template.defaultBody,
        isCustomised: template.isCustomised,
        placeholders: template.placeholders
      })
      expect(encode(emailTemplateDto(template))).toStrictEqual(encode(validated))
    }
  )

  it("answers the wire's JSON, and is refused on encoding when a member is not what the wire allows", () => {
    const template = emailTemplate("CisStatement", { subject: "Statement to {{taxMonthEnd}}", body: "{{deducted}}" })
    expect(encode(emailTemplateDto(template))).toMatchObject({
      type: "CisStatement",
      subject: "Statement to {{taxMonthEnd}}",
      body: "{{deducted}}",
      isCustomised: true
    })
    expect(() => encode(emailTemplateDto({ ...template, type: "Newsletter" as "CisStatement" }))).toThrow()
    expect(() => encode(emailTemplateDto({ ...template, placeholders: [null as unknown as string] }))).toThrow()
  })
})
