import { Effect, Option } from "effect"
import { NotFound, type ValidationFailed } from "../Errors.js"
import { isUuid, ReceivedStatementId } from "../Ids.js"
import { SalesInvoiceRepo } from "../invoices/SalesInvoiceRepo.js"
import type { StatementFile } from "../returns/CisStatement.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import type { Tenant } from "../tenants/Tenant.js"
import type { ReceivedStatement } from "./ReceivedStatement.js"
import { periodBounds, type ReceivedStatementQuery } from "./ReceivedStatementQuery.js"
import { ReceivedStatementRepo } from "./ReceivedStatementRepo.js"
import { reconciled, type ReconciledStatement } from "./Reconciliation.js"

/** The statement's file name: `statement-<contractor tenant>-<periodEnd>.pdf`. */
const fileName = (statement: ReceivedStatement) =>
  `statement-${statement.contractor.tenantCode}-${statement.periodEnd}.pdf`

/**
 * The payment and deduction statements the tenant received from the contractors it is
 * connected to, each reconciled when read against the tenant's own sales-invoice payments.
 */
export class ReceivedStatements extends Effect.Service<ReceivedStatements>()("core/ReceivedStatements", {
  effect: Effect.gen(function* () {
    const repo = yield* ReceivedStatementRepo
    const invoices = yield* SalesInvoiceRepo

    const notFound = (tenant: Tenant, id: string) =>
      new NotFound({ detail: `The tenant ${tenant.code} has received no statement ${id}.` })

    const find = (tenant: Tenant, id: string) =>
      (isUuid(id) ? repo.find(tenant.id, ReceivedStatementId.make(id)) : Effect.succeedNone).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(tenant, id)), onSome: Effect.succeed }))
      )

    /** Latest periodEnd first, within the query's periodEnd bounds (both included). */
    const list = (
      query: ReceivedStatementQuery
    ): Effect.Effect<ReadonlyArray<ReconciledStatement>, ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const bounds = yield* periodBounds(query)
        return yield* reconciled(invoices, tenant.id, yield* repo.list(tenant.id, bounds))
      }).pipe(Effect.withSpan("ReceivedStatements.list"))

    const get = (id: string): Effect.Effect<ReconciledStatement, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const [one] = yield* reconciled(invoices, tenant.id, [yield* find(tenant, id)])
        return one!
      }).pipe(Effect.withSpan("ReceivedStatements.get"))

    /** The statement's PDF, as the contractor issued it. */
    const pdf = (id: string): Effect.Effect<StatementFile, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const statement = yield* find(tenant, id)
        const content = yield* repo.pdf(tenant.id, statement.id)
        if (Option.isNone(content)) return yield* notFound(tenant, id)
        return { filename: fileName(statement), content: content.value }
      }).pipe(Effect.withSpan("ReceivedStatements.pdf"))

    return { list, get, pdf } as const
  })
}) {}
