import type { SalesInvoiceId } from "@cisbook/core/Ids"
import { SalesInvoice, type SalesInvoicePayment } from "@cisbook/core/invoices/SalesInvoice"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { SalesInvoiceRepo } from "@cisbook/core/invoices/SalesInvoiceRepo"
import { Effect, Layer, Option, Ref } from "effect"
import { invoiceStoreMemory } from "./InvoiceStoreMemory.js"
import { MemoryJournal } from "./MemoryJournal.js"

interface State {
  readonly invoices: ReadonlyArray<SalesInvoice>
  /** Oldest recorded first. */
  readonly payments: ReadonlyArray<SalesInvoicePayment>
  /** The highest number sequence issued or claimed, by tenant. */
  readonly sequences: ReadonlyMap<string, number>
}

/** The sales invoices in memory; a journal cell, so a failed transaction drops its changes. */
export class SalesInvoiceStore extends Effect.Service<SalesInvoiceStore>()("testkit/SalesInvoiceStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) =>
    journal.ref<State>({ invoices: [], payments: [], sequences: new Map() })
  )
}) {}

const byDateThenId = (a: SalesInvoicePayment, b: SalesInvoicePayment) =>
  a.date === b.date ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.date < b.date ? -1 : 1

export const SalesInvoiceRepoMemory = Layer.effect(
  SalesInvoiceRepo,
  Effect.gen(function* () {
    const state = yield* SalesInvoiceStore
    const contacts = yield* ContactRepo
    const raise = (tenantId: string, to: (last: number) => number) =>
      Ref.modify(state, (s) => {
        const next = to(s.sequences.get(tenantId) ?? 0)
        return [next, { ...s, sequences: new Map(s.sequences).set(tenantId, next) }] as const
      })
    const store = invoiceStoreMemory<SalesInvoice, SalesInvoiceId>(
      {
        get: Effect.map(Ref.get(state), (s) => s.invoices),
        modify: (f) =>
          Ref.modify(state, (s) => {
            const [answer, invoices] = f(s.invoices)
            return [answer, { ...s, invoices }] as const
          })
      },
      (a, b) => a.number === b.number
    )
    return SalesInvoiceRepo.of({
      nextSequence: (tenantId) => raise(tenantId, (last) => last + 1),
      claimSequence: (tenantId, sequence) => Effect.asVoid(raise(tenantId, (last) => Math.max(last, sequence))),
      ...store,
      // One fiber at a time runs here and nothing is shared between processes: there is nothing to lock.
      findByIdForUpdate: store.findById,
      payments: (tenantId, invoiceId) =>
        Effect.map(Ref.get(state), (s) =>
          s.payments.filter((p) => p.tenantId === tenantId && p.invoiceId === invoiceId)
        ),
      addPayment: (payment) =>
        Ref.update(state, (s) => ({
          ...s,
          payments: [...s.payments, payment],
          invoices: s.invoices.map((i) =>
            i.tenantId === payment.tenantId && i.id === payment.invoiceId
              ? new SalesInvoice({ ...i, amountPaid: i.amountPaid + payment.amount })
              : i
          )
        })),
      paymentsFromContacts: (tenantId, contactIds, from, to) =>
        Effect.map(Ref.get(state), (s) => {
          const customerOf = new Map(
            s.invoices.filter((i) => i.tenantId === tenantId).map((i) => [i.id, i.contactId] as const)
          )
          return s.payments
            .filter((p) => p.tenantId === tenantId && p.date >= from && p.date <= to)
            .sort(byDateThenId)
            .flatMap((payment) => {
              const contactId = customerOf.get(payment.invoiceId)
              return contactId !== undefined && contactIds.includes(contactId) ? [{ contactId, payment }] : []
            })
        }),
      paymentsBetween: (tenantId, from, to) =>
        Effect.gen(function* () {
          const s = yield* Ref.get(state)
          const payments = s.payments
            .filter((p) => p.tenantId === tenantId && p.date >= from && p.date <= to)
            .sort(byDateThenId)
          return yield* Effect.forEach(payments, (payment) =>
            Effect.gen(function* () {
              const invoice = s.invoices.find((i) => i.tenantId === tenantId && i.id === payment.invoiceId)
              if (!invoice) return yield* Effect.dieMessage(`Payment ${payment.id} has no invoice`)
              const contact = yield* contacts.findByCode(tenantId, invoice.contactCode)
              return { payment, invoice, contactName: Option.getOrThrow(contact).name }
            })
          )
        })
    })
  })
)
