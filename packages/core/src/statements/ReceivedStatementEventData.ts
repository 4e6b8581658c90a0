import { Schema } from "effect"
import { TaxTreatment } from "../contacts/Contact.js"
import { Pounds, SignedPounds } from "../Money.js"
import { type ReconciledStatement, ReconciliationStatus } from "./Reconciliation.js"

const Day = Schema.String.annotations({ format: "date", examples: ["2026-06-05"] })

export const ReconciliationEventData = Schema.Struct({
  payments: Schema.Int.annotations({
    description:
      "How many of the tenant's sales-invoice payments from the contact are dated in the statement's tax month"
  }),
  deducted: Pounds.annotations({ description: "The sum of those payments' CIS deduction shares" }),
  difference: SignedPounds.annotations({
    description: "The statement's deducted less that sum (negative when the statement says less was deducted)"
  }),
  status: ReconciliationStatus.annotations({
    description: "Matched: the difference is 0; Different: it is not; NoPayments: no payment to compare with"
  })
}).annotations({
  identifier: "StatementReconciliation",
  description: "The statement set beside the tenant's own books, worked out when read"
})

/**
 * A payment and deduction statement a tenant received from a connected contractor, as the API
 * shows it and as the `data` of `cis-statement.received`. Money is pounds on the wire and pence
 * in code.
 */
export const ReceivedStatementEventData = Schema.Struct({
  id: Schema.String,
  periodEnd: Day.annotations({ description: "The tax month, by its last day (the 5th)" }),
  contractor: Schema.Struct({
    tenant: Schema.String.annotations({ description: "The contractor tenant's code" }),
    name: Schema.String.annotations({ description: "The contractor tenant's display name" }),
    employerReference: Schema.NullOr(Schema.String).annotations({
      description: "The employer PAYE reference the contractor's return was filed under"
    })
  }),
  contact: Schema.String.annotations({
    description: "The tenant's contact for the contractor (its customer): its side of the connection"
  }),
  grossAmount: Pounds.annotations({ description: "Gross amount paid, without VAT" }),
  materials: Pounds.annotations({ description: "Cost of materials" }),
  deducted: Pounds.annotations({ description: "Amount deducted" }),
  taxTreatment: TaxTreatment,
  verificationNumber: Schema.NullOr(Schema.String),
  receivedAt: Schema.Date,
  reconciliation: ReconciliationEventData
}).annotations({
  identifier: "ReceivedStatementDto",
  description:
    "A payment and deduction statement delivered by a connected contractor, with its reconciliation against the tenant's sales-invoice payments",
  examples: [
    {
      id: "0196a5f2-7d41-7c3a-9d1e-8f27c1b6a0c5",
      periodEnd: "2026-06-05",
      contractor: { tenant: "lovelace-builders", name: "Lovelace Builders Ltd", employerReference: "123/AB45678" },
      contact: "LOVELACE",
      grossAmount: 100000,
      materials: 40000,
      deducted: 12000,
      taxTreatment: "Net",
      verificationNumber: "V1234567890",
      receivedAt: new Date("2026-06-10T10:02:00.000Z"),
      reconciliation: { payments: 1, deducted: 12000, difference: 0, status: "Matched" }
    }
  ]
})
export type ReceivedStatementEventData = typeof ReceivedStatementEventData.Type

export const receivedStatementEventData = ({
  reconciliation,
  statement
}: ReconciledStatement): ReceivedStatementEventData => ({
  id: statement.id,
  periodEnd: statement.periodEnd,
  contractor: {
    tenant: statement.contractor.tenantCode,
    name: statement.contractor.name,
    employerReference: statement.contractor.employerReference
  },
  contact: statement.contact.code,
  grossAmount: statement.grossAmount,
  materials: statement.materials,
  deducted: statement.deducted,
  taxTreatment: statement.taxTreatment,
  verificationNumber: statement.verificationNumber,
  receivedAt: statement.receivedAt,
  reconciliation: { ...reconciliation }
})

/** The JSON of a received statement, as webhook receivers get it. */
export const receivedStatementEventJson = (reconciled: ReconciledStatement) =>
  Schema.encodeSync(ReceivedStatementEventData)(receivedStatementEventData(reconciled))
