import { BillingInvoice, type BillingInvoiceLine } from "@cisbook/core/billing/billinginvoices/BillingInvoice"
import { BillingUsage, UsageSubcontractor } from "@cisbook/core/billing/billinginvoices/BillingUsage"
import { type ClaimedUsage, numberedInvoice } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import type { BillingInvoiceId, UserId } from "@cisbook/core/Ids"
import { BillingInvoiceRepo, type Collection } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { MonthlyReturn } from "@cisbook/core/returns/MonthlyReturn"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"
import { MonthlyReturnStore, type StoredReturn } from "./MonthlyReturnRepoMemory.js"
import { TenantStore } from "./TenantRepoMemory.js"

/** An invoice as the SQL row keeps it: its place in the sequence, its PDF, and its lease. */
interface Row {
  readonly invoice: BillingInvoice
  readonly seq: number
  readonly lines: ReadonlyArray<BillingInvoiceLine>
  readonly pdf: Uint8Array | null
  readonly leasedUntil: Date | null
}

const waitsForCollection = (invoice: BillingInvoice) =>
  invoice.finished && (invoice.paymentStatus === "WaitingForMandate" || invoice.paymentStatus === "Cancelled")

export const BillingInvoiceRepoMemory = Layer.effect(
  BillingInvoiceRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const tenants = yield* TenantStore
    const returns = yield* MonthlyReturnStore
    const rows = yield* journal.ref<ReadonlyArray<Row>>([])
    // Not journaled: like a PostgreSQL sequence, a number once taken is not given back by a rollback.
    const sequence = yield* Ref.make(0)

    /** The user's accepted, not yet invoiced returns, each with its tenant. */
    const uninvoiced = (userId: UserId) =>
      Effect.map(Effect.all([Ref.get(tenants), Ref.get(returns)]), ([s, all]) =>
        all.flatMap((row) => {
          const r = row.monthlyReturn
          const owns = s.memberships.some((m) => m.tenantId === r.tenantId && m.userId === userId && m.role === "Owner")
          const tenant = s.tenants.find((t) => t.id === r.tenantId)
          return owns && tenant && r.status === "Accepted" && !r.gatewayTest && row.billingInvoiceId === null
            ? [{ row, tenant }]
            : []
        })
      )

    const update = (userId: UserId, id: BillingInvoiceId, change: (row: Row) => Row | null) =>
      Ref.modify(rows, (all) => {
        const row = all.find((r) => r.invoice.userId === userId && r.invoice.id === id)
        const next = row && change(row)
        return next ? [true, all.map((r) => (r === row ? next : r))] : [false, all]
      })

    const withCollection = (invoice: BillingInvoice, c: Collection, finished = invoice.finished) =>
      new BillingInvoice({ ...invoice, ...c, finished })

    const byUser = (userId: UserId) =>
      Effect.map(Ref.get(rows), (all) => all.filter((r) => r.invoice.userId === userId))

    return BillingInvoiceRepo.of({
      usage: (userId) =>
        Effect.map(uninvoiced(userId), (found) =>
          found
            .map(
              ({ row: { monthlyReturn: r }, tenant }) =>
                new BillingUsage({
                  returnId: r.id,
                  tenantId: r.tenantId,
                  tenant: tenant.code,
                  tenantName: tenant.name,
                  periodEnd: r.periodEnd,
                  acceptedAt: r.acceptedAt!,
                  subcontractors: r.lines.map(
                    (l) => new UsageSubcontractor({ contactCode: l.contactCode, name: l.name })
                  )
                })
            )
            .sort(
              (a, b) =>
                a.periodEnd.localeCompare(b.periodEnd) ||
                a.tenant.localeCompare(b.tenant) ||
                a.returnId.localeCompare(b.returnId)
            )
        ),
      usersWithUsage: Effect.map(Effect.all([Ref.get(tenants), Ref.get(returns)]), ([s, all]) => {
        const billable = new Set(
          all
            .filter(
              (row) =>
                row.monthlyReturn.status === "Accepted" &&
                !row.monthlyReturn.gatewayTest &&
                row.billingInvoiceId === null
            )
            .map((row) => row.monthlyReturn.tenantId)
        )
        const owners = s.memberships.filter((m) => m.role === "Owner" && billable.has(m.tenantId)).map((m) => m.userId)
        return [...new Set(owners)].sort()
      }),
      claimUsage: (userId, invoiceId) =>
        Effect.gen(function* () {
          const found = yield* uninvoiced(userId)
          const claimed = new Set<StoredReturn>(found.map(({ row }) => row))
          yield* Ref.update(returns, (all) =>
            all.map((row) =>
              claimed.has(row)
                ? {
                    ...row,
                    billingInvoiceId: invoiceId,
                    monthlyReturn: new MonthlyReturn({ ...row.monthlyReturn, invoiced: true })
                  }
                : row
            )
          )
          return found.map(({ row: { monthlyReturn: r }, tenant }): ClaimedUsage => ({
            returnId: r.id,
            tenantId: r.tenantId,
            tenant: tenant.code,
            tenantName: tenant.name,
            periodEnd: r.periodEnd,
            subcontractors: r.lines.length
          }))
        }),
      insert: (draft, _at) =>
        Effect.gen(function* () {
          const seq = yield* Ref.updateAndGet(sequence, (n) => n + 1)
          const invoice = numberedInvoice(draft, seq)
          yield* Ref.update(rows, (all) => [...all, { invoice, seq, lines: draft.lines, pdf: null, leasedUntil: null }])
          return invoice
        }),
      claimUnfinished: (now, leaseUntil, limit) =>
        Ref.modify(rows, (all) => {
          const due = all
            .filter((r) => !r.invoice.finished && (r.leasedUntil === null || r.leasedUntil <= now))
            .sort((a, b) => a.seq - b.seq)
            .slice(0, limit)
          const chosen = new Set(due)
          return [
            due.map((r) => ({ invoice: r.invoice, lines: r.lines })),
            all.map((r) => (chosen.has(r) ? { ...r, leasedUntil: leaseUntil } : r))
          ]
        }),
      storePdf: (userId, id, pdf) =>
        Effect.asVoid(
          update(userId, id, (row) => ({ ...row, pdf, invoice: new BillingInvoice({ ...row.invoice, hasPdf: true }) }))
        ),
      recordCollection: (userId, id, c, finish) =>
        Effect.asVoid(
          update(userId, id, (row) =>
            finish
              ? { ...row, invoice: withCollection(row.invoice, c, true), leasedUntil: null }
              : { ...row, invoice: withCollection(row.invoice, c) }
          )
        ),
      recordPutForward: (userId, id, c) =>
        update(userId, id, (row) =>
          waitsForCollection(row.invoice) ? { ...row, invoice: withCollection(row.invoice, c) } : null
        ),
      list: (userId) =>
        Effect.map(byUser(userId), (mine) =>
          mine
            .sort((a, b) => b.invoice.issueDate.localeCompare(a.invoice.issueDate) || b.seq - a.seq)
            .map((r) => r.invoice)
        ),
      find: (userId, id) =>
        Effect.map(byUser(userId), (mine) =>
          Option.map(Option.fromNullable(mine.find((r) => r.invoice.id === id)), (r) => ({
            invoice: r.invoice,
            lines: r.lines
          }))
        ),
      findByPaymentReference: (reference) =>
        Effect.map(Ref.get(rows), (all) =>
          Option.map(Option.fromNullable(all.find((r) => r.invoice.paymentReference === reference)), (r) => r.invoice)
        ),
      movePaymentStatus: (invoice, from, to, at) =>
        update(invoice.userId, invoice.id, (row) =>
          row.invoice.paymentStatus === from
            ? {
                ...row,
                invoice: new BillingInvoice({
                  ...row.invoice,
                  paymentStatus: to,
                  failedAt: to === "Failed" ? at : row.invoice.failedAt,
                  paymentReadAt: at
                })
              }
            : null
        ),
      recordPaymentsRead: (userId, ids, at) =>
        Ref.update(rows, (all) =>
          all.map((row) =>
            row.invoice.userId === userId && ids.includes(row.invoice.id)
              ? { ...row, invoice: new BillingInvoice({ ...row.invoice, paymentReadAt: at }) }
              : row
          )
        ),
      failedInvoices: Effect.map(Ref.get(rows), (all) =>
        all
          .filter(({ invoice: i }) => i.finished && i.paymentStatus === "Failed")
          .sort((a, b) => a.seq - b.seq)
          .map((r) => r.invoice)
      ),
      recordRetry: (invoice, to) =>
        update(invoice.userId, invoice.id, (row) =>
          row.invoice.paymentStatus === "Failed" && row.invoice.paymentRetries === invoice.paymentRetries
            ? {
                ...row,
                invoice: new BillingInvoice({
                  ...row.invoice,
                  paymentStatus: to,
                  paymentRetries: row.invoice.paymentRetries + 1
                })
              }
            : null
        ),
      waitingForCollection: (userId) =>
        Effect.map(byUser(userId), (mine) =>
          mine
            .filter((r) => waitsForCollection(r.invoice))
            .sort((a, b) => a.seq - b.seq)
            .map((r) => r.invoice)
        ),
      pdf: (userId, id) =>
        Effect.map(byUser(userId), (mine) =>
          Option.fromNullable(mine.find((r) => r.invoice.id === id)?.pdf ?? null).pipe(
            Option.map((pdf) => new Uint8Array(pdf))
          )
        )
    })
  })
)
