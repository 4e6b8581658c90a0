import { PurchaseInvoice } from "@cisbook/core/invoices/PurchaseInvoice"
import { PurchaseInvoiceRepo } from "@cisbook/core/invoices/PurchaseInvoiceRepo"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { invoiceStoreSql } from "./InvoiceStoreSql.js"

export const PurchaseInvoiceRepoSql = Layer.effect(
  PurchaseInvoiceRepo,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const { findById, insert, list } = invoiceStoreSql(sql, {
      table: "purchase_invoices",
      model: PurchaseInvoice,
      ownColumns: [],
      ownValues: () => ({})
    })
    return PurchaseInvoiceRepo.of({ insert, findById, list })
  })
)
