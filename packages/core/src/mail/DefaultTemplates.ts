import type { EmailTemplateType } from "./EmailTemplateType.js"

export interface TemplateText {
  readonly subject: string
  readonly body: string
}

/** The subject and body of each type until the tenant customises it. */
export const defaultTemplates: { readonly [T in EmailTemplateType]: TemplateText } = {
  ConnectionInvitation: {
    subject: "{{tenantName}} would like to connect with you on cisbook",
    body: `Dear {{contactName}},

{{purpose}}

Once you are connected, CIS details and payment and deduction statements are shared between you automatically, with no forms to fill in and nothing to post.

To review the request and accept or decline it, please follow this link:
{{connectionUrl}}

If you were not expecting this email, you can safely ignore it.

Kind regards,
{{tenantName}}`
  },
  CisStatement: {
    subject: "Your CIS payment and deduction statement for the month to {{taxMonthEnd}}",
    body: `Dear {{contactName}},

Please find attached your Construction Industry Scheme payment and deduction statement from {{tenantName}} for the tax month ending {{taxMonthEnd}}.

Gross amount paid (excluding VAT): {{grossAmount}}
Cost of materials: {{materials}}
Amount deducted: {{deducted}}

The amount deducted has been paid to HM Revenue & Customs on your behalf. Please keep this statement safe, as you will need it to claim the deductions against your tax and National Insurance.

If anything on the statement looks wrong, please reply to this email and we will put it right.

Kind regards,
{{tenantName}}`
  },
  SalesInvoice: {
    subject: "Invoice {{invoiceNumber}} from {{tenantName}}",
    body: `Dear {{contactName}},

Please find below the details of invoice {{invoiceNumber}}, dated {{issueDate}}.

Invoice total: {{total}}
Amount due: {{amountDue}}
Payment due by: {{dueDate}}

Please quote {{invoiceNumber}} as the reference when you pay. If you have any questions about this invoice, simply reply to this email.

Thank you for your business.

Kind regards,
{{tenantName}}`
  },
  PaymentReminder: {
    subject: "Payment reminder: invoice {{invoiceNumber}} is overdue",
    body: `Dear {{contactName}},

This is a friendly reminder that invoice {{invoiceNumber}}, dated {{issueDate}}, was due for payment on {{dueDate}} and has not yet been paid in full.

Amount outstanding: {{amountDue}}
Days overdue: {{daysOverdue}}

If you have already paid, thank you, and please disregard this reminder. Otherwise, we would be grateful if you could arrange payment at your earliest convenience, quoting {{invoiceNumber}} as the reference.

If there is a problem with the invoice, please reply to this email and we will be happy to help.

Kind regards,
{{tenantName}}`
  }
}
