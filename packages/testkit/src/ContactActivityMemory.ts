import type { ContactId, TenantId } from "@cisbook/core/Ids"
import { ContactActivity } from "@cisbook/core/contacts/ContactActivity"
import { Effect, Layer, Ref } from "effect"
import { ConnectionStore } from "./ConnectionRepoMemory.js"
import { PurchaseInvoiceStore } from "./PurchaseInvoiceRepoMemory.js"
import { SalesInvoiceStore } from "./SalesInvoiceRepoMemory.js"

export interface Activity {
  readonly salesInvoices?: boolean
  readonly purchaseInvoices?: boolean
  readonly connections?: boolean
}

/** Lets a test say what a contact has without making it. */
export class ContactActivityFake extends Effect.Service<ContactActivityFake>()("testkit/ContactActivityFake", {
  effect: Effect.map(Ref.make(new Map<string, Activity>()), (state) => ({
    state,
    set: (tenantId: TenantId, contactId: ContactId, activity: Activity) =>
      Ref.update(state, (all) => new Map(all).set(`${tenantId}/${contactId}`, activity))
  }))
}) {}

/** What the memory invoice and connection stores hold about a contact, or what a test said it has. */
export const ContactActivityMemory = Layer.effect(
  ContactActivity,
  Effect.gen(function* () {
    const { state } = yield* ContactActivityFake
    const sales = yield* SalesInvoiceStore
    const purchases = yield* PurchaseInvoiceStore
    const connections = yield* ConnectionStore
    const said = (key: keyof Activity, tenantId: TenantId, contactId: ContactId) =>
      Effect.map(Ref.get(state), (all) => all.get(`${tenantId}/${contactId}`)?.[key] ?? false)
    const invoiced =
      (invoices: Effect.Effect<ReadonlyArray<{ readonly tenantId: TenantId; readonly contactId: ContactId }>>) =>
      (tenantId: TenantId, contactId: ContactId) =>
        Effect.map(invoices, (all) => all.some((i) => i.tenantId === tenantId && i.contactId === contactId))
    const either =
      (key: keyof Activity, held: (tenantId: TenantId, contactId: ContactId) => Effect.Effect<boolean>) =>
      (tenantId: TenantId, contactId: ContactId) =>
        Effect.zipWith(said(key, tenantId, contactId), held(tenantId, contactId), (a, b) => a || b)
    return ContactActivity.of({
      hasSalesInvoices: either("salesInvoices", invoiced(Effect.map(Ref.get(sales), (s) => s.invoices))),
      hasPurchaseInvoices: either("purchaseInvoices", invoiced(Effect.map(Ref.get(purchases), (s) => s.invoices))),
      hasConnections: either("connections", (tenantId, contactId) =>
        Effect.map(Ref.get(connections), (s) =>
          s.sides.some((side) => side.tenantId === tenantId && side.contactId === contactId)
        )
      )
    })
  })
).pipe(Layer.provideMerge(ContactActivityFake.Default))
