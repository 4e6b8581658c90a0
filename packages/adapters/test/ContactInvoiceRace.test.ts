import { Email } from "@cisbook/core/Email"
import { ContactActivity } from "@cisbook/core/contacts/ContactActivity"
import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Contacts } from "@cisbook/core/contacts/Contacts"
import { SalesInvoices } from "@cisbook/core/invoices/SalesInvoices"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { expect, layer } from "@effect/vitest"
import { UseCasesOverSql } from "./UseCasesOverSql.js"
import { Effect, Exit, Option } from "effect"
import { asUser } from "@cisbook/core/users/ActingAs"

/**
 * The use cases over the real database: on PostgreSQL (CISBOOK_TEST_DATABASE_URL) with a pool of
 * connections, so that racing transactions really overlap.
 */
const App = UseCasesOverSql

const ROUNDS = 12

const setUp = Effect.gen(function* () {
  const owner = yield* (yield* Users).create({ email: Email.make(`race.${Date.now()}@example.com`), name: "Racer" })
  const code = `race-${Date.now().toString(36)}`
  const { tenant } = yield* (yield* Tenants)
    .create({ code: TenantCode.make(code), name: "Race", email: null })
    .pipe(asUser(owner))
  return { owner, tenant, code } as const
})

const invoice = (contact: string) => ({
  contact,
  issueDate: "2026-04-06",
  dueDate: "2026-05-06",
  subtotal: 10000,
  vat: 0
})

const tagOf = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>) =>
  Exit.match(exit, {
    onSuccess: () => "ok",
    onFailure: (cause) => (cause._tag === "Fail" ? cause.error._tag : `defect: ${String(cause)}`)
  })

layer(App, { timeout: "120 seconds" })("a contact and its invoices, racing", (it) => {
  it.effect("an invoice and the contact's deletion never both succeed, and neither fails with a defect", () =>
    Effect.gen(function* () {
      const contacts = yield* Contacts
      const invoices = yield* SalesInvoices
      const { code, owner } = yield* setUp
      const outcomes = yield* Effect.forEach(
        Array.from({ length: ROUNDS }, (_, i) => i),
        (i) =>
          Effect.gen(function* () {
            const contact = yield* contacts
              .create({
                name: `${String.fromCharCode(65 + i)} Racing`,
                isCustomer: true
              })
              .pipe(asMember(owner, code))
            const [created, removed] = yield* Effect.all(
              [
                Effect.exit(invoices.create(invoice(contact.code)).pipe(asMember(owner, code))),
                Effect.exit(contacts.remove(contact.code).pipe(asMember(owner, code)))
              ],
              { concurrency: 2 }
            )
            return `${tagOf(created)}/${tagOf(removed)}`
          }),
        { concurrency: 4 }
      )
      for (const outcome of outcomes) expect(["ok/Conflict", "ValidationFailed/ok"]).toContain(outcome)
    })
  )

  it.effect("an invoice and the removal of the customer role never both succeed", () =>
    Effect.gen(function* () {
      const contacts = yield* Contacts
      const invoices = yield* SalesInvoices
      const repo = yield* ContactRepo
      const activity = yield* ContactActivity
      const { code, owner, tenant } = yield* setUp
      const outcomes = yield* Effect.forEach(
        Array.from({ length: ROUNDS }, (_, i) => i),
        (i) =>
          Effect.gen(function* () {
            const contact = yield* contacts
              .create({
                name: `${String.fromCharCode(65 + i)} Racing`,
                isCustomer: true
              })
              .pipe(asMember(owner, code))
            const [created, updated] = yield* Effect.all(
              [
                Effect.exit(invoices.create(invoice(contact.code)).pipe(asMember(owner, code))),
                Effect.exit(
                  contacts
                    .update(contact.code, {
                      name: contact.name,
                      isCustomer: false,
                      isSupplier: false,
                      isCisSubcontractor: false,
                      vatRegistered: false
                    })
                    .pipe(asMember(owner, code))
                )
              ],
              { concurrency: 2 }
            )
            const stored = Option.getOrThrow(yield* repo.findByCode(tenant.id, contact.code))
            const invoiced = yield* activity.hasSalesInvoices(tenant.id, contact.id)
            // Whichever won, the stored contact agrees with it: a non-customer has no sales invoices.
            expect(stored.isCustomer || !invoiced).toBe(true)
            return `${tagOf(created)}/${tagOf(updated)}`
          }),
        { concurrency: 4 }
      )
      for (const outcome of outcomes) expect(["ok/Conflict", "ValidationFailed/ok"]).toContain(outcome)
    })
  )
})
