import { Connections } from "@cisbook/core/connections/Connections"
import { Contacts } from "@cisbook/core/contacts/Contacts"
import type { Email } from "@cisbook/core/Email"
import { MonthlyReturnId } from "@cisbook/core/Ids"
import { MonthlyReturn, ReturnContractor, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import { ReturnStatementRepo } from "@cisbook/core/returns/ReturnStatementRepo"
import { Clock } from "@cisbook/core/system/Clock"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { Transactor } from "@cisbook/core/system/Transactor"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { asUser } from "@cisbook/core/users/ActingAs"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { sampleCisScheme } from "@cisbook/testkit/CisSchemeFixtures"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { storedDeclarations } from "@cisbook/testkit/DeclarationsFixtures"

/** The tax month `back` months before June 2026's, by its last day. */
const periodEnd = (back: number) => {
  const month = 2026 * 12 + 5 - back
  return `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, "0")}-05`
}

let counter = 0

/**
 * A contractor tenant that invited its subcontractor SMITH's own tenant (In), which accepted
 * with its customer LOVELACE; and `returns` monthly returns of the contractor (one a tax month,
 * back from June 2026) with SMITH on them, whose statements of SMITH are queued for delivery as
 * each return's acceptance queues them.
 */
export const queuedDeliveries = (returns: number) =>
  Effect.gen(function* () {
    const n = `${++counter}-${Date.now().toString(36)}`
    const users = yield* Users
    const tenants = yield* Tenants
    const con = yield* users.create({ email: `con-${n}@example.com` as Email, name: "Con" })
    const sub = yield* users.create({ email: `sub-${n}@example.com` as Email, name: "Sue" })
    const contractorCode = `lovelace-${n}`
    const subcontractorCode = `smith-${n}`
    const contractor = (yield* tenants
      .create({ code: TenantCode.make(contractorCode), name: "Lovelace Ltd", email: null })
      .pipe(asUser(con))).tenant
    const subcontractor = (yield* tenants
      .create({ code: TenantCode.make(subcontractorCode), name: "Smith GW", email: null })
      .pipe(asUser(sub))).tenant
    const contacts = yield* Contacts
    const smith = yield* contacts
      .create({ name: "Smith", isSupplier: true, isCisSubcontractor: true })
      .pipe(asMember(con, contractorCode))
    const customer = yield* contacts
      .create({ name: "Lovelace", isCustomer: true })
      .pipe(asMember(sub, subcontractorCode))
    const connections = yield* Connections
    const { connection } = yield* connections
      .create({ contact: smith.code, direction: "In", email: sub.email! })
      .pipe(asMember(con, contractorCode))
    yield* connections.setCounterparty(connection.id, { contact: customer.code }).pipe(asMember(sub, subcontractorCode))

    const ids = yield* IdGenerator
    const now = yield* (yield* Clock).now
    const line = new ReturnLine({
      contactId: smith.id,
      contactCode: smith.code,
      name: smith.name,
      utr: "2234567890",
      verificationNumber: "V1234567890",
      taxTreatment: "Net",
      grossAmount: 100000,
      materials: 40000,
      deducted: 12000
    })
    const filed = yield* Effect.forEach(
      Array.from({ length: returns }, (_, i) => i),
      (back) =>
        Effect.map(
          ids.uuid,
          (id) =>
            new MonthlyReturn({
              id: MonthlyReturnId.make(id),
              tenantId: contractor.id,
              periodEnd: periodEnd(back),
              status: "Submitted",
              contractor: new ReturnContractor({
                name: "Lovelace Builders Ltd",
                utr: "8456789123",
                scheme: sampleCisScheme
              }),
              lines: [line],
              nilReturn: false,
              inactive: false,
              declarations: storedDeclarations(now),
              submittedAt: now,
              acceptedAt: null,
              rejectionReason: null,
              invoiced: false
            })
        )
    )
    const monthlyReturns = yield* MonthlyReturnRepo
    const statements = yield* ReturnStatementRepo
    yield* (yield* Transactor).transaction(
      Effect.gen(function* () {
        for (const r of filed) yield* monthlyReturns.insert(r)
        yield* statements.insert(
          filed.map((r) => ({
            tenantId: r.tenantId,
            monthlyReturnId: r.id,
            contactId: smith.id,
            contactCode: smith.code,
            pdf: null,
            mailId: null,
            deliverVia: connection.id,
            issuedAt: now
          }))
        )
      })
    )
    return { con, sub, contractor, subcontractor, connection, customer, returns: filed } as const
  })

/**
 * What the deliveries came to, as the database holds it: read in one statement, so that the
 * counts are of one snapshot even while a deliverer commits.
 */
export const deliveryCounts = (contractorId: string, subcontractorId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [counts] = yield* sql<{
      statements: number
      sources: number
      events: number
      delivered: number
      due: number
    }>`
      SELECT
        (SELECT count(*)::int FROM received_statements WHERE tenant_id = ${subcontractorId}) AS statements,
        (SELECT count(DISTINCT source_return_id)::int FROM received_statements
          WHERE tenant_id = ${subcontractorId}) AS sources,
        (SELECT count(*)::int FROM events
          WHERE tenant_id = ${subcontractorId} AND type = 'cis-statement.received') AS events,
        (SELECT count(*)::int FROM return_statements
          WHERE tenant_id = ${contractorId} AND delivery_status = 'Delivered') AS delivered,
        (SELECT count(*)::int FROM return_statements
          WHERE tenant_id = ${contractorId} AND delivery_status = 'Due') AS due`
    return {
      statements: counts!.statements,
      sources: counts!.sources,
      events: counts!.events,
      delivered: counts!.delivered,
      due: counts!.due
    }
  }).pipe(Effect.orDie)
