import { formatPounds } from "@cisbook/core/Money"
import { paymentsReportColumns, type SalesInvoicePaymentsReportItem } from "@cisbook/sdk/InvoiceDtos"
import { stringify } from "csv-stringify/sync"

/** What a spreadsheet may take for the start of a formula (OWASP CSV injection), full-width forms included. */
const formulaStart = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/

/**
 * The payments report as CSV: RFC 4180 with CRLF, a header row of the JSON members' names,
 * amounts in pounds with 2 decimals. A cell that could start a formula gets a leading ' and
 * quotes, so that a spreadsheet shows it as text.
 */
export const paymentsReportCsv = (items: ReadonlyArray<SalesInvoicePaymentsReportItem>): string =>
  stringify(
    items.map((item) => ({
      ...item,
      amount: formatPounds(item.amount),
      cisDeduction: formatPounds(item.cisDeduction)
    })),
    {
      header: true,
      columns: [...paymentsReportColumns],
      record_delimiter: "windows",
      escape_formulas: true,
      quoted_match: formulaStart
    }
  )
