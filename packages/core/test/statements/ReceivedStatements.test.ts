import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Contacts } from "../../src/contacts/Contacts.js"
import { NotFound, ValidationFailed } from "../../src/Errors.js"
import { SalesInvoices } from "../../src/invoices/SalesInvoices.js"
import { ReceivedStatements } from "../../src/statements/ReceivedStatements.js"
import { receivedStatementEventData } from "../../src/statements/ReceivedStatementEventData.js"
import { StatementDelivery } from "../../src/statements/StatementDelivery.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import type { User } from "../../src/users/User.js"
import { asMember, asUser, aUser } from "../TestApp.js"
import {
  acceptedReturn,
  aConnectedContractor,
  CONTRACTOR,
  juneLines,
  LEASE,
  statementsApp,
  SUBCONTRACTOR
} from "./ConnectedContractor.js"

/** The subcontractor invoices `customer` `subtotal` (no VAT) less `cisDeduction`, and records `payments` towards it. */
const invoicePaid = (
  sub: User,
  customer: string,
  invoice: { readonly subtotal: number; readonly cisDeduction: number },
  payments: ReadonlyArray<{ readonly date: string; readonly amount: number }>
) =>
  Effect.gen(function* () {
    const invoices = yield* SalesInvoices
    const created = yield* invoices
      .create({ contact: customer, issueDate: "2026-05-01", dueDate: "2026-06-30", vat: 0, ...invoice })
      .pipe(asMember(sub, SUBCONTRACTOR))
    for (const payment of payments) yield* invoices.addPayment(created.id, payment).pipe(asMember(sub, SUBCONTRACTOR))
  })

describe("ReceivedStatements", () => {
  it.effect(
    "reconciles a statement when read with the tenant's payments from the contractor dated in its tax month",
    () =>
      Effect.gen(function* () {
        const { bricks, con, customer, smith, sub } = yield* aConnectedContractor
        yield* acceptedReturn(con, juneLines(smith, bricks))
        yield* (yield* StatementDelivery).deliverDue(10, LEASE)
        const received = yield* ReceivedStatements
        const [delivered] = yield* received.list({}).pipe(asMember(sub, SUBCONTRACTOR))
        const reconciliation = Effect.map(
          received.get(delivered!.statement.id).pipe(asMember(sub, SUBCONTRACTOR)),
          (r) => r.reconciliation
        )
        // The statement says £120.00 was deducted in the tax month 6 May to 5 June 2026.
        expect(yield* reconciliation).toEqual({ payments: 0, deducted: 0, difference: 12000, status: "NoPayments" })

        // Outside the month (the 5th of May, the 6th of June) or from another customer: not counted.
        yield* invoicePaid(sub, customer.code, { subtotal: 10000, cisDeduction: 1200 }, [
          { date: "2026-05-05", amount: 4400 },
          { date: "2026-06-06", amount: 4400 }
        ])
        const other = yield* (yield* Contacts)
          .create({ name: "Other Co", isCustomer: true })
          .pipe(asMember(sub, SUBCONTRACTOR))
        yield* invoicePaid(sub, other.code, { subtotal: 10000, cisDeduction: 1200 }, [
          { date: "2026-05-20", amount: 8800 }
        ])
        expect((yield* reconciliation).status).toBe("NoPayments")

        // On the month's first day: £72.00 of the £120.00.
        yield* invoicePaid(sub, customer.code, { subtotal: 60000, cisDeduction: 7200 }, [
          { date: "2026-05-06", amount: 52800 }
        ])
        expect(yield* reconciliation).toEqual({ payments: 1, deducted: 7200, difference: 4800, status: "Different" })

        // On its last day: the other £48.00.
        yield* invoicePaid(sub, customer.code, { subtotal: 40000, cisDeduction: 4800 }, [
          { date: "2026-06-05", amount: 35200 }
        ])
        expect(yield* reconciliation).toEqual({ payments: 2, deducted: 12000, difference: 0, status: "Matched" })

        // Half of another invoice paid: its share, £6.00, is more than the statement says.
        yield* invoicePaid(sub, customer.code, { subtotal: 10000, cisDeduction: 1200 }, [
          { date: "2026-05-31", amount: 4400 }
        ])
        const over = yield* received.list({}).pipe(asMember(sub, SUBCONTRACTOR))
        expect(over.map((r) => r.reconciliation)).toEqual([
          { payments: 3, deducted: 12600, difference: -600, status: "Different" }
        ])
        expect(receivedStatementEventData(over[0]!).reconciliation).toEqual({
          payments: 3,
          deducted: 12600,
          difference: -600,
          status: "Different"
        })
      }).pipe(Effect.provide(statementsApp))
  )

  it.effect("lists latest tax month first, within from and to (both included), each reconciled on its own month", () =>
    Effect.gen(function* () {
      const { bricks, con, customer, smith, sub } = yield* aConnectedContractor
      yield* acceptedReturn(con, juneLines(smith, bricks), "2026-05-05")
      yield* acceptedReturn(con, juneLines(smith, bricks), "2026-07-05")
      yield* acceptedReturn(con, juneLines(smith, bricks), "2026-06-05")
      expect(yield* (yield* StatementDelivery).deliverDue(10, LEASE)).toBe(3)
      // £120.00 paid with its deduction in June's tax month, none in the others.
      yield* invoicePaid(sub, customer.code, { subtotal: 100000, cisDeduction: 12000 }, [
        { date: "2026-05-10", amount: 88000 }
      ])
      const received = yield* ReceivedStatements
      const listed = (query: { from?: string | null; to?: string | null }) =>
        Effect.map(received.list(query).pipe(asMember(sub, SUBCONTRACTOR)), (all) =>
          all.map((r) => [r.statement.periodEnd, r.reconciliation.status])
        )
      expect(yield* listed({})).toEqual([
        ["2026-07-05", "NoPayments"],
        ["2026-06-05", "Matched"],
        ["2026-05-05", "NoPayments"]
      ])
      expect(yield* listed({ from: "2026-06-05", to: null })).toEqual([
        ["2026-07-05", "NoPayments"],
        ["2026-06-05", "Matched"]
      ])
      expect(yield* listed({ from: "2026-05-05", to: "2026-06-05" })).toEqual([
        ["2026-06-05", "Matched"],
        ["2026-05-05", "NoPayments"]
      ])
      expect(yield* listed({ to: "2026-05-04" })).toEqual([])

      const backwards = yield* Effect.flip(
        received.list({ from: "2026-07-05", to: "2026-05-05" }).pipe(asMember(sub, SUBCONTRACTOR))
      )
      assert(backwards instanceof ValidationFailed)
      expect(backwards.errors).toEqual({ from: ["Must not be after to"] })
      const notDates = yield* Effect.flip(
        received.list({ from: "2026-02-30", to: "June" }).pipe(asMember(sub, SUBCONTRACTOR))
      )
      assert(notDates instanceof ValidationFailed)
      expect(Object.keys(notDates.errors).sort()).toEqual(["from", "to"])
    }).pipe(Effect.provide(statementsApp))
  )

  it.effect("another tenant never sees or reaches a tenant's statement, the contractor included", () =>
    Effect.gen(function* () {
      const { bricks, con, smith, sub } = yield* aConnectedContractor
      yield* acceptedReturn(con, juneLines(smith, bricks))
      yield* (yield* StatementDelivery).deliverDue(10, LEASE)
      const received = yield* ReceivedStatements
      const [delivered] = yield* received.list({}).pipe(asMember(sub, SUBCONTRACTOR))
      const id = delivered!.statement.id
      expect((yield* received.pdf(id).pipe(asMember(sub, SUBCONTRACTOR))).content.length).toBeGreaterThan(0)

      const stranger = yield* aUser("stranger@example.com", "Stranger")
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("stranger"), name: "Stranger", email: null })
        .pipe(asUser(stranger))
      for (const [user, tenant] of [
        [stranger, "stranger"],
        [con, CONTRACTOR]
      ] as const) {
        expect(yield* received.list({}).pipe(asMember(user, tenant))).toEqual([])
        const get = yield* Effect.flip(received.get(id).pipe(asMember(user, tenant)))
        assert(get instanceof NotFound)
        expect(get.detail).toBe(`The tenant ${tenant} has received no statement ${id}.`)
        assert((yield* Effect.flip(received.pdf(id).pipe(asMember(user, tenant)))) instanceof NotFound)
      }
      // Not a member of the subcontractor's tenant: refused before anything is read.
      expect((yield* Effect.flip(received.list({}).pipe(asMember(stranger, SUBCONTRACTOR))))._tag).toBe("NotAMember")
      assert((yield* Effect.flip(received.get("not-a-uuid").pipe(asMember(sub, SUBCONTRACTOR)))) instanceof NotFound)
    }).pipe(Effect.provide(statementsApp))
  )
})
