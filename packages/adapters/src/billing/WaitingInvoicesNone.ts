import { WaitingInvoices } from "@cisbook/core/ports/WaitingInvoices"
import { Effect, Layer } from "effect"

/**
 * Billing invoices do not exist yet (the billing run comes with its own issue), so a new mandate
 * has nothing waiting to put forward. The billing run replaces this layer with its SQL one.
 */
export const WaitingInvoicesNone = Layer.succeed(WaitingInvoices, WaitingInvoices.of({ putForward: () => Effect.void }))
