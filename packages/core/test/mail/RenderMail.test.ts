import { defaultTemplates } from "../../src/mail/DefaultTemplates.js"
import { EmailTemplateType } from "../../src/mail/EmailTemplateType.js"
import { placeholdersIn, placeholdersOf } from "../../src/mail/Placeholders.js"
import { renderMail } from "../../src/mail/RenderMail.js"
import type { TemplateValues } from "../../src/mail/TemplateValues.js"
import { describe, expect, it } from "@effect/vitest"

const reminder: TemplateValues["PaymentReminder"] = {
  tenantName: "Lovelace Builders Ltd",
  contactName: "Zoë Smith",
  invoiceNumber: "INV-000042",
  issueDate: "2026-06-05",
  dueDate: "2026-07-05",
  total: 123456,
  amountDue: 100000,
  reference: null,
  daysOverdue: 12
}

describe("rendering a mail", () => {
  it("fills {{name}} and {{ name }}, amounts in pounds and dates in words", () => {
    const mail = renderMail(
      {
        subject: "{{invoiceNumber}} due {{ dueDate }}",
        body: "{{contactName}} owes {{ amountDue }} of {{total}}, {{daysOverdue}} days late. Ref: {{reference}}."
      },
      reminder,
      null
    )
    expect(mail).toEqual({
      subject: "INV-000042 due 5 July 2026",
      body: "Zoë Smith owes £1,000.00 of £1,234.56, 12 days late. Ref: ."
    })
  })

  it("ends the body with the signature block when there is a signature", () => {
    const mail = renderMail({ subject: "Hello", body: "Body text" }, reminder, "Ada\nLovelace Builders")
    expect(mail.body).toBe("Body text\n\n-- \nAda\nLovelace Builders")
  })

  it("inserts values as text: no placeholder from a value, no line break in the subject", () => {
    const mail = renderMail(
      { subject: "Invoice {{invoiceNumber}}", body: "Dear {{contactName}},\n{{tenantName}}" },
      { ...reminder, invoiceNumber: "1\r\nBcc: thief@evil.example", contactName: "{{tenantName}}" },
      null
    )
    expect(mail.subject).toBe("Invoice 1 Bcc: thief@evil.example")
    expect(mail.body).toBe("Dear {{tenantName}},\nLovelace Builders Ltd")
  })

  it("has defaults for every type that use only that type's placeholders, and each type's essentials", () => {
    for (const type of EmailTemplateType.literals) {
      const { body, subject } = defaultTemplates[type]
      const allowed: ReadonlyArray<string> = placeholdersOf[type]
      expect(subject).not.toContain("\n")
      expect([...placeholdersIn(subject), ...placeholdersIn(body)].filter((name) => !allowed.includes(name))).toEqual(
        []
      )
      expect(placeholdersIn(body)).toContain("contactName")
    }
    expect(placeholdersIn(defaultTemplates.ConnectionInvitation.body)).toContain("connectionUrl")
    expect(placeholdersIn(defaultTemplates.PaymentReminder.body)).toContain("daysOverdue")
    expect(placeholdersIn(defaultTemplates.CisStatement.body)).toEqual(
      expect.arrayContaining(["grossAmount", "materials", "deducted", "taxMonthEnd"])
    )
  })
})
