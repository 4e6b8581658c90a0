import { ContactActivity } from "@cisbook/core/contacts/ContactActivity"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { type ContractIt, storedTenant } from "./Fixtures.js"
import { storedContact, storedPurchaseInvoice, storedSalesInvoice } from "./InvoiceFixtures.js"

export const contactActivityContract = (it: ContractIt) => {
  it.effect("tells whether a contact of the tenant has sales or purchase invoices", () =>
    Effect.gen(function* () {
      const activity = yield* ContactActivity
      const tenant = yield* storedTenant
      const customer = yield* storedContact(tenant)
      const supplier = yield* storedContact(tenant)
      const has = (contact: typeof customer, t = tenant) =>
        Effect.all([
          activity.hasSalesInvoices(t.id, contact.id),
          activity.hasPurchaseInvoices(t.id, contact.id),
          activity.hasConnections(t.id, contact.id)
        ])
      expect(yield* has(customer)).toEqual([false, false, false])
      yield* storedSalesInvoice(customer)
      yield* storedPurchaseInvoice(supplier)
      expect(yield* has(customer)).toEqual([true, false, false])
      expect(yield* has(supplier)).toEqual([false, true, false])
      const other = yield* storedTenant
      expect(yield* has(customer, other)).toEqual([false, false, false])
    })
  )
}
