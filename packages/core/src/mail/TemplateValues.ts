/**
 * The values a template of each type is filled with. Amounts are integer pence and dates
 * YYYY-MM-DD: rendering formats them for people (`£1,234.56`, `5 June 2026`).
 */
interface InvoiceValues {
  readonly tenantName: string
  readonly contactName: string
  readonly invoiceNumber: string
  readonly issueDate: string
  readonly dueDate: string
  readonly total: number
  readonly amountDue: number
  readonly reference: string | null
}

export interface TemplateValues {
  readonly ConnectionInvitation: {
    readonly tenantName: string
    readonly contactName: string
    /** One sentence set by the connection's direction. */
    readonly purpose: string
    readonly connectionUrl: string
  }
  readonly CisStatement: {
    readonly tenantName: string
    readonly contactName: string
    readonly taxMonthEnd: string
    readonly grossAmount: number
    readonly materials: number
    readonly deducted: number
  }
  readonly SalesInvoice: InvoiceValues
  readonly PaymentReminder: InvoiceValues & { readonly daysOverdue: number }
}
