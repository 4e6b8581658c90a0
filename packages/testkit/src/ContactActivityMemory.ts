import type { ContactId, TenantId } from "@cisbook/core/Ids"
import { ContactActivity } from "@cisbook/core/ports/ContactActivity"
import { Effect, Layer, Ref } from "effect"

export interface Activity {
  readonly salesInvoices?: boolean
  readonly purchaseInvoices?: boolean
  readonly connections?: boolean
}

/** Stands in for the invoices and connections capabilities: a test says what a contact has. */
export class ContactActivityFake extends Effect.Service<ContactActivityFake>()("testkit/ContactActivityFake", {
  effect: Effect.map(Ref.make(new Map<string, Activity>()), (state) => ({
    state,
    set: (tenantId: TenantId, contactId: ContactId, activity: Activity) =>
      Ref.update(state, (all) => new Map(all).set(`${tenantId}/${contactId}`, activity))
  }))
}) {}

export const ContactActivityMemory = Layer.effect(
  ContactActivity,
  Effect.map(ContactActivityFake, ({ state }) => {
    const has = (key: keyof Activity) => (tenantId: TenantId, contactId: ContactId) =>
      Effect.map(Ref.get(state), (all) => all.get(`${tenantId}/${contactId}`)?.[key] ?? false)
    return ContactActivity.of({
      hasSalesInvoices: has("salesInvoices"),
      hasPurchaseInvoices: has("purchaseInvoices"),
      hasConnections: has("connections")
    })
  })
).pipe(Layer.provideMerge(ContactActivityFake.Default))
