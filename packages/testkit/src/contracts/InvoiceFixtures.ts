import { Contact } from "@cisbook/core/contacts/Contact"
import {
  ContactId,
  PurchaseInvoiceId,
  PurchaseInvoicePaymentId,
  SalesInvoiceId,
  SalesInvoicePaymentId
} from "@cisbook/core/Ids"
import { PurchaseInvoice, PurchaseInvoicePayment } from "@cisbook/core/invoices/PurchaseInvoice"
import { SalesInvoice, SalesInvoicePayment } from "@cisbook/core/invoices/SalesInvoice"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import { SalesInvoiceRepo } from "@cisbook/core/invoices/SalesInvoiceRepo"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import { Effect } from "effect"
import { at, fresh } from "./Fixtures.js"

/** A customer and supplier of the tenant, in the store, with a code of its own. */
export const storedContact = (tenant: Tenant, name = "Contact") =>
  Effect.gen(function* () {
    const { id, token } = yield* fresh
    const contact = new Contact({
      id: ContactId.make(id),
      tenantId: tenant.id,
      code: `C${token.slice(-7).toUpperCase()}`,
      name,
      email: null,
      externalId: null,
      isCustomer: true,
      isSupplier: true,
      isCisSubcontractor: false,
      vatRegistered: false,
      vatNumber: null,
      lastSdcDate: null,
      cisDetails: null,
      verification: null,
      supplierSettings: null,
      createdAt: at(0),
      updatedAt: at(0)
    })
    yield* Effect.flatMap(ContactRepo, (repo) => repo.insert(contact))
    return contact
  })

type SalesFields = Partial<Omit<ConstructorParameters<typeof SalesInvoice>[0], "id" | "tenantId" | "contactId">>

export const newSalesInvoice = (contact: Contact, fields: SalesFields = {}) =>
  Effect.map(
    fresh,
    ({ id, token }) =>
      new SalesInvoice({
        id: SalesInvoiceId.make(id),
        tenantId: contact.tenantId,
        number: `N-${token.slice(-8)}`,
        contactId: contact.id,
        contactCode: contact.code,
        issueDate: "2026-04-06",
        dueDate: "2026-05-06",
        reference: null,
        subtotal: 100000,
        vat: 20000,
        cisDeduction: 20000,
        amountPaid: 0,
        createdAt: at(0),
        ...fields
      })
  )

export const storedSalesInvoice = (contact: Contact, fields: SalesFields = {}) =>
  Effect.tap(newSalesInvoice(contact, fields), (invoice) =>
    Effect.flatMap(SalesInvoiceRepo, (repo) => repo.insert(invoice))
  )

export const newPayment = (
  invoice: SalesInvoice,
  fields: Partial<Omit<ConstructorParameters<typeof SalesInvoicePayment>[0], "id" | "tenantId" | "invoiceId">> = {}
) =>
  Effect.map(
    fresh,
    ({ id }) =>
      new SalesInvoicePayment({
        id: SalesInvoicePaymentId.make(id),
        tenantId: invoice.tenantId,
        invoiceId: invoice.id,
        date: "2026-05-01",
        amount: 1000,
        cisDeduction: 200,
        reference: null,
        createdAt: at(1),
        ...fields
      })
  )

export const newPurchaseInvoice = (
  contact: Contact,
  fields: Partial<Omit<ConstructorParameters<typeof PurchaseInvoice>[0], "id" | "tenantId" | "contactId">> = {}
) =>
  Effect.map(
    fresh,
    ({ id, token }) =>
      new PurchaseInvoice({
        id: PurchaseInvoiceId.make(id),
        tenantId: contact.tenantId,
        number: `P-${token.slice(-8)}`,
        contactId: contact.id,
        contactCode: contact.code,
        issueDate: "2026-04-10",
        dueDate: "2026-04-30",
        reference: null,
        subtotal: 250000,
        vat: 0,
        cisDeduction: 40000,
        materials: 50000,
        taxTreatment: "Net",
        amountPaid: 0,
        createdAt: at(0),
        ...fields
      })
  )

export const storedPurchaseInvoice = (contact: Contact, fields: Parameters<typeof newPurchaseInvoice>[1] = {}) =>
  Effect.tap(newPurchaseInvoice(contact, fields), (invoice) =>
    Effect.flatMap(PurchaseInvoiceRepo, (repo) => repo.insert(invoice))
  )

/** A payment of the purchase invoice (not stored): 1,000.00 of a 2,100.00 payable, its shares made up. */
export const newPurchasePayment = (
  invoice: PurchaseInvoice,
  fields: Partial<Omit<ConstructorParameters<typeof PurchaseInvoicePayment>[0], "id" | "tenantId" | "invoiceId">> = {}
) =>
  Effect.map(
    fresh,
    ({ id }) =>
      new PurchaseInvoicePayment({
        id: PurchaseInvoicePaymentId.make(id),
        tenantId: invoice.tenantId,
        invoiceId: invoice.id,
        date: "2026-05-01",
        amount: 100000,
        grossAmount: 119048,
        materials: 23810,
        deducted: 19048,
        reference: null,
        createdAt: at(1),
        ...fields
      })
  )
