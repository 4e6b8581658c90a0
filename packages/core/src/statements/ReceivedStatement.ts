import { Schema } from "effect"
import { TaxTreatment } from "../contacts/Contact.js"
import { ContactId, MonthlyReturnId, ReceivedStatementId, TenantId } from "../Ids.js"
import { Pence } from "../Money.js"
import { TenantCode } from "../tenants/Tenant.js"

/** The line of a contractor tenant's accepted return that a statement is of: the contractor's contact for the subcontractor. */
export class StatementSource extends Schema.Class<StatementSource>("StatementSource")({
  tenantId: TenantId,
  monthlyReturnId: MonthlyReturnId,
  contactId: ContactId
}) {}

/** The contractor a statement came from, as it was when delivered. */
export class StatementContractor extends Schema.Class<StatementContractor>("StatementContractor")({
  tenantCode: TenantCode,
  /** The contractor tenant's display name. */
  name: Schema.String,
  /** The employer PAYE reference its return was filed under; null on a return filed before schemes were registered. */
  employerReference: Schema.NullOr(Schema.String)
}) {}

/** The receiving tenant's contact for the contractor: its customer, its side of the connection. */
export class StatementContact extends Schema.Class<StatementContact>("StatementContact")({
  id: ContactId,
  code: Schema.String
}) {}

/**
 * A payment and deduction statement a subcontractor tenant received from a contractor it is
 * connected to: the contractor's statement of one line of its accepted return, delivered once.
 * Money in pence.
 */
export class ReceivedStatement extends Schema.Class<ReceivedStatement>("ReceivedStatement")({
  id: ReceivedStatementId,
  /** The receiving tenant: the subcontractor. */
  tenantId: TenantId,
  source: StatementSource,
  contractor: StatementContractor,
  contact: StatementContact,
  /** The tax month, by its last day: YYYY-MM-05. */
  periodEnd: Schema.String,
  taxTreatment: TaxTreatment,
  verificationNumber: Schema.NullOr(Schema.String),
  grossAmount: Pence,
  materials: Pence,
  deducted: Pence,
  receivedAt: Schema.DateFromSelf
}) {}
