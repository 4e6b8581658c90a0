import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { BillingInvoices } from "@cisbook/core/billing/billinginvoices/BillingInvoices"
import { BillingRun } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { aTenant, aUser, anAcceptedReturn, BillingOverSql } from "./BillingFixtures.js"

const INVOICES = 12
const LISTINGS = 16
const ROUNDS = 10

/**
 * Listings of one user at once (open tabs, retries) each record the payments they read: on
 * PostgreSQL (CISBOOK_TEST_DATABASE_URL), with a pool of connections, their statements really
 * overlap on the same rows.
 */
layer(BillingOverSql, { excludeTestServices: true, timeout: "180 seconds" })(
  "payments read by listings at once",
  (it) => {
    it.effect("are recorded by every listing, none of them deadlocked by another", () =>
      Effect.gen(function* () {
        const owner = yield* aUser("reads")
        const tenant = yield* aTenant(owner, "Reads Ltd")
        const run = yield* BillingRun
        for (let month = 1; month <= INVOICES; month++) {
          const period = `2025-${String(month).padStart(2, "0")}-05`
          yield* anAcceptedReturn(tenant.id, period, 1)
          yield* run.run(`2026-01-${String(month).padStart(2, "0")}`)
        }
        const invoices = yield* (yield* BillingInvoices).listAsStored(owner)
        expect(invoices).toHaveLength(INVOICES)
        const repo = yield* BillingInvoiceRepo
        const ids = invoices.map((invoice) => invoice.id)
        for (let round = 0; round < ROUNDS; round++) {
          const at = new Date(Date.UTC(2026, 0, 20, 12, 0, round))
          // Each listing names the invoices in its own order, as a listing names those it did not move.
          yield* Effect.forEach(
            Array.from({ length: LISTINGS }, (_, n) => n),
            (n) => repo.recordPaymentsRead(owner.id, n % 2 === 0 ? ids : [...ids].reverse(), at),
            { concurrency: "unbounded", discard: true }
          )
          const read = yield* (yield* BillingInvoices).listAsStored(owner)
          expect(read.map((invoice) => invoice.paymentReadAt?.getTime())).toEqual(ids.map(() => at.getTime()))
        }
      })
    )
  }
)
