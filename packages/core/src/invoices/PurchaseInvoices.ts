import { Effect, Option } from "effect"
import { blankAsNull } from "../BlankAsNull.js"
import { Conflict, type NotFound, type ValidationFailed } from "../Errors.js"
import { PurchaseInvoiceId, PurchaseInvoicePaymentId } from "../Ids.js"
import { withinAmountDue } from "./AmountDue.js"
import { MonthlyReturnRepo } from "../returns/MonthlyReturnRepo.js"
import { taxMonthEndOf } from "../returns/TaxMonth.js"
import { Clock } from "../system/Clock.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { Transactor } from "../system/Transactor.js"
import { CurrentTenant } from "../tenants/CurrentTenant.js"
import { findInvoice, invoiceBook } from "./InvoiceBook.js"
import type { NewPayment, NewPurchaseInvoice } from "./InvoiceInput.js"
import type { InvoiceListPage } from "./InvoicePage.js"
import type { InvoiceListRequest } from "./InvoiceQuery.js"
import { paymentShares } from "./PaymentShares.js"
import { PurchaseInvoice, PurchaseInvoicePayment } from "./PurchaseInvoice.js"
import { PurchaseInvoiceRepo } from "./PurchaseInvoiceRepo.js"
import { billDeduction } from "./SubcontractorBill.js"

export type PurchaseInvoiceListPage = InvoiceListPage<PurchaseInvoice>

export interface PurchaseInvoiceWithPayments {
  readonly invoice: PurchaseInvoice
  /** Oldest first. */
  readonly payments: ReadonlyArray<PurchaseInvoicePayment>
}

export class PurchaseInvoices extends Effect.Service<PurchaseInvoices>()("core/PurchaseInvoices", {
  effect: Effect.gen(function* () {
    const repo = yield* PurchaseInvoiceRepo
    const returns = yield* MonthlyReturnRepo
    const { transaction } = yield* Transactor
    const clock = yield* Clock
    const ids = yield* IdGenerator
    const book = yield* invoiceBook({
      kind: "purchase invoice",
      role: "Supplier",
      store: repo,
      toId: (id) => PurchaseInvoiceId.make(id),
      number: (_tenant, input: NewPurchaseInvoice) => Effect.succeed(input.number),
      make: (members, supplier, input) =>
        Effect.map(billDeduction(supplier, input), (cis) => new PurchaseInvoice({ ...members, ...cis, amountPaid: 0 })),
      numberTaken: (tenant, contact, number) =>
        `${contact.code} already has a purchase invoice numbered ${number} in ${tenant.code}.`,
      recorded: () => Effect.void
    })
    const findForUpdate = findInvoice("purchase invoice", (id) => PurchaseInvoiceId.make(id), repo.findByIdForUpdate)

    /** Records a supplier's invoice; a CIS subcontractor's with the deduction the tenant must make. */
    const create = (
      input: NewPurchaseInvoice
    ): Effect.Effect<PurchaseInvoice, NotFound | ValidationFailed | Conflict, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        return yield* book.create(tenant, input)
      }).pipe(Effect.withSpan("PurchaseInvoices.create"))

    const get = (id: string): Effect.Effect<PurchaseInvoiceWithPayments, NotFound, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const invoice = yield* book.find(tenant, id)
        return { invoice, payments: yield* repo.payments(tenant.id, invoice.id) }
      })

    const list = (
      request: InvoiceListRequest
    ): Effect.Effect<PurchaseInvoiceListPage, NotFound | ValidationFailed, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        return yield* book.page(tenant, request)
      }).pipe(Effect.withSpan("PurchaseInvoices.list"))

    /**
     * Records a payment to the supplier, with its shares of the invoice's gross, materials and
     * CIS deduction. The invoice stays locked meanwhile, so that concurrent payments cannot
     * together pay more than is due. A payment of a CIS subcontractor's bill holds its tax month
     * (as filing that month's return does) and is refused when the month's return is filed.
     */
    const addPayment = (
      invoiceId: string,
      input: NewPayment
    ): Effect.Effect<PurchaseInvoicePayment, NotFound | ValidationFailed | Conflict, CurrentTenant> =>
      Effect.gen(function* () {
        const { tenant } = yield* CurrentTenant
        const id = PurchaseInvoicePaymentId.make(yield* ids.uuid)
        const createdAt = yield* clock.now
        return yield* transaction(
          Effect.gen(function* () {
            const invoice = yield* findForUpdate(tenant, invoiceId)
            yield* withinAmountDue(invoice, input.amount)
            if (invoice.isCisBill) {
              const periodEnd = taxMonthEndOf(input.date)
              yield* returns.holdTaxMonth(tenant.id, periodEnd)
              const filed = yield* returns.filedFor(tenant.id, periodEnd)
              if (Option.isSome(filed))
                return yield* new Conflict({
                  detail: `date ${input.date} is in the tax month ending ${periodEnd}, whose return is ${filed.value.status}: that return is filed without this payment. Date the payment in an open tax month.`
                })
            }
            const earlier = yield* repo.payments(tenant.id, invoice.id)
            const before = {
              amount: invoice.amountPaid,
              shares: {
                grossAmount: earlier.reduce((sum, p) => sum + p.grossAmount, 0),
                materials: earlier.reduce((sum, p) => sum + p.materials, 0),
                deducted: earlier.reduce((sum, p) => sum + p.deducted, 0)
              }
            }
            const figures = {
              grossAmount: invoice.subtotal,
              materials: invoice.materials,
              deducted: invoice.cisDeduction
            }
            const payment = new PurchaseInvoicePayment({
              id,
              tenantId: tenant.id,
              invoiceId: invoice.id,
              date: input.date,
              amount: input.amount,
              ...paymentShares(figures, invoice.amountPayable, before, input.amount),
              reference: blankAsNull(input.reference),
              createdAt
            })
            yield* repo.addPayment(payment)
            return payment
          })
        )
      }).pipe(Effect.withSpan("PurchaseInvoices.addPayment"))

    return { create, get, list, addPayment } as const
  })
}) {}
