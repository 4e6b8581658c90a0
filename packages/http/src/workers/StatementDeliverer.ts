import { StatementDelivery } from "@cisbook/core/statements/StatementDelivery"
import { leasedWorker } from "./LeasedWorker.js"
import { leasedWorkerConfig, leasedWorkerLive } from "./LeasedWorkerConfig.js"

/** STATEMENT_DELIVERER (on unless false) and its settings. */
export const StatementDelivererConfig = leasedWorkerConfig("STATEMENT_DELIVERY", {
  switch: "STATEMENT_DELIVERER",
  concurrency: [20, 1, 500],
  // A delivery is a few reads and one transaction (and at most one statement drawn).
  leaseSeconds: [60, 10, 3600]
})

/**
 * The statement deliverer: a leased worker over the statements of accepted returns queued for
 * connected subcontractors (see LeasedWorker and StatementDelivery). A delivery in flight when it
 * stops is made by another deliverer once its lease runs out; one made is never made again.
 */
export const statementDeliverer = leasedWorker(StatementDelivery, {
  worker: "Statement deliverer",
  items: "statements",
  work: "statement deliveries",
  // Given up: the connection went before the statement could be delivered.
  failed: (done) => done.delivery._tag === "Drop"
})

export const StatementDelivererLive = leasedWorkerLive(StatementDelivererConfig, statementDeliverer)
