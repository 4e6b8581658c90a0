import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { BillingInvoices, PaymentRefreshTimeout } from "@cisbook/core/billing/billinginvoices/BillingInvoices"
import { BillingRun } from "@cisbook/core/billing/billinginvoices/BillingRun"
import { Mandates } from "@cisbook/core/billing/mandates/Mandates"
import { WaitingInvoices } from "@cisbook/core/billing/mandates/WaitingInvoices"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import type { User } from "@cisbook/core/users/User"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { DirectDebitControl } from "@cisbook/testkit/DirectDebitFake"
import { pdfText } from "@cisbook/testkit/PdfText"
import { SqlClient } from "@effect/sql"
import { assert, expect, layer } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Option, Ref } from "effect"
import { aTenant, aUser, anAcceptedReturn, BillingOverSql, type Faults, ProviderFaults } from "./BillingFixtures.js"
import { asUser } from "@cisbook/core/users/ActingAs"

const run = (date = "2026-07-01") => Effect.flatMap(BillingRun, (billing) => billing.run(date))
const invoicesOf = (user: User) => Effect.flatMap(BillingInvoices, (invoices) => invoices.listAsStored(user))
const detailOf = (user: User, id: string) =>
  Effect.flatMap(BillingInvoices, (invoices) => invoices.get(id).pipe(asUser(user)))

/** A completed mandate of the user (the customer finished the provider's page). */
const mandateFor = (user: User) =>
  Effect.gen(function* () {
    const mandates = yield* Mandates
    const setup = yield* mandates.setup({ successRedirectUrl: "https://app.example/done" }).pipe(asUser(user))
    yield* (yield* DirectDebitControl).finish(setup.redirectFlowId)
    const mandate = yield* mandates.complete(setup).pipe(asUser(user))
    return mandate.reference!
  })

/** The provider's payments, as the in-memory provider holds them. */
const providerPayments = Effect.flatMap(DirectDebitControl, ({ state }) =>
  Effect.map(Ref.get(state), (s) => [...s.payments.values()])
)

const setFaults = (f: Partial<Faults>) =>
  Effect.flatMap(ProviderFaults, ({ faults }) => Ref.update(faults, (current) => ({ ...current, ...f })))
const noFaults = setFaults({
  createPayment: (real) => real,
  getPayment: (real) => real,
  listPayments: (real) => real
})

/** The lease a crashed run held runs out (as it would after five minutes). */
const leasesRunOut = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`UPDATE billing_invoices SET leased_until = now() - interval '1 second' WHERE finished_at IS NULL`
)

layer(BillingOverSql, { excludeTestServices: true, timeout: "120 seconds" })("the billing run over SQL", (it) => {
  it.effect(
    "bills one invoice per owner: a line per accepted return, VAT, numbering; usage is then empty and a second run bills nothing",
    () =>
      Effect.gen(function* () {
        const owner = yield* aUser("owner")
        const member = yield* aUser("member")
        const beta = yield* aTenant(owner, "Beta Builders Ltd")
        const alpha = yield* aTenant(owner, "Alpha Roofing Ltd")
        yield* (yield* Tenants).addMember({ email: member.email, role: "Member" }).pipe(asMember(owner, beta.code))
        const june = yield* anAcceptedReturn(beta.id, "2026-06-05", 3)
        const may = yield* anAcceptedReturn(beta.id, "2026-05-05", 2)
        const alphaJune = yield* anAcceptedReturn(alpha.id, "2026-06-05", 1)

        const usage = yield* (yield* BillingInvoices).usage().pipe(asUser(owner))
        // Oldest tax month first, then by tenant code.
        const sameMonth = [
          [june, beta.code, "Beta Builders Ltd", "2026-06-05", 3],
          [alphaJune, alpha.code, "Alpha Roofing Ltd", "2026-06-05", 1]
        ].sort((a, b) => String(a[1]).localeCompare(String(b[1])))
        expect(usage.map((u) => [u.returnId, u.tenant, u.tenantName, u.periodEnd, u.subcontractors.length])).toEqual([
          [may, beta.code, "Beta Builders Ltd", "2026-05-05", 2],
          ...sameMonth
        ])
        expect(usage[0]?.subcontractors[1]).toMatchObject({ contactCode: "SUB2", name: "Subcontractor 2" })
        // A Member's tenants are not billed to them.
        expect(yield* (yield* BillingInvoices).usage().pipe(asUser(member))).toEqual([])

        yield* run()
        const [invoice, ...others] = yield* invoicesOf(owner)
        assert(invoice !== undefined)
        expect(others).toEqual([])
        expect(invoice).toMatchObject({
          issueDate: "2026-07-01",
          periodStart: "2026-05-05",
          periodEnd: "2026-06-05",
          currency: "GBP",
          subtotal: 600,
          vat: 120,
          total: 720,
          paymentStatus: "WaitingForMandate",
          paymentReference: null,
          hasPdf: true,
          finished: true
        })
        expect(invoice.number).toMatch(/^CB-\d{6}$/)
        const { lines } = yield* detailOf(owner, invoice.id)
        expect(lines.map((l) => [l.returnId, l.quantity, l.unitPrice, l.amount])).toEqual(
          usage.map((u) => [u.returnId, u.subcontractors.length, 100, u.subcontractors.length * 100])
        )
        expect(lines[0]?.description).toBe("CIS return, tax month ending 5 May 2026 (Beta Builders Ltd)")
        expect(yield* (yield* BillingInvoices).usage().pipe(asUser(owner))).toEqual([])
        expect(yield* invoicesOf(member)).toEqual([])

        yield* run("2026-07-02")
        expect((yield* invoicesOf(owner)).map((i) => i.number)).toEqual([invoice.number])

        // The next accepted return goes on the next invoice, numbered after this one.
        yield* anAcceptedReturn(alpha.id, "2026-07-05", 4)
        yield* run("2026-08-01")
        const [august, july] = yield* invoicesOf(owner)
        expect(july?.number).toBe(invoice.number)
        expect(Number(august?.number.slice(3))).toBeGreaterThan(Number(invoice.number.slice(3)))
        expect(august).toMatchObject({ issueDate: "2026-08-01", subtotal: 400, vat: 80, total: 480 })
      })
  )

  it.effect("renders a VAT invoice PDF whose text names the seller, the buyer, the number and the total", () =>
    Effect.gen(function* () {
      const owner = yield* aUser("pdf")
      const tenant = yield* aTenant(owner, "Lovelace Builders Ltd")
      yield* anAcceptedReturn(tenant.id, "2026-06-05", 1)
      yield* run()
      const [invoice] = yield* invoicesOf(owner)
      assert(invoice !== undefined)
      const { bytes, fileName } = yield* (yield* BillingInvoices).pdf(invoice.id).pipe(asUser(owner))
      expect(fileName).toBe(`${invoice.number}.pdf`)
      const text = (yield* pdfText(bytes)).replace(/\s+/g, " ")
      for (const expected of [
        "VAT invoice",
        invoice.number,
        "cisbook Ltd",
        "VAT registration number: GB123456789",
        owner.email!,
        "1 July 2026",
        "CIS return, tax month ending 5 June 2026 (Lovelace Builders Ltd)",
        "Subtotal (excluding VAT) £1.00",
        "VAT at 20% £0.20",
        "Total due £1.20",
        "Waiting for a direct debit mandate"
      ]) {
        expect(text).toContain(expected)
      }
    })
  )

  it.effect(
    "collects on the user's mandate with the invoice id as the key; a crash after the provider took the payment is finished by the next run, charged once",
    () =>
      Effect.gen(function* () {
        const owner = yield* aUser("crash")
        const mandate = yield* mandateFor(owner)
        const tenant = yield* aTenant(owner, "Crash Ltd")
        yield* anAcceptedReturn(tenant.id, "2026-06-05", 2)
        // The provider makes the payment, then the run's process is killed before recording it.
        const paymentTaken = yield* Deferred.make<void>()
        yield* setFaults({
          createPayment: (real) => (payment, key) =>
            real(payment, key).pipe(
              Effect.zipLeft(Deferred.succeed(paymentTaken, undefined)),
              Effect.zipRight(Effect.never)
            )
        })
        const killed = yield* Effect.fork(run())
        yield* Deferred.await(paymentTaken)
        yield* Fiber.interrupt(killed)
        yield* noFaults
        const [unfinished] = yield* invoicesOf(owner)
        assert(unfinished !== undefined)
        expect(unfinished).toMatchObject({ finished: false, paymentReference: null })
        // Nothing is billed again while the crashed run's lease lasts; then the next run finishes it.
        yield* leasesRunOut
        const report = yield* run("2026-07-02")
        expect(report.finished.map((f) => f.invoice.id)).toContain(unfinished.id)
        const [finished] = yield* invoicesOf(owner)
        const charged = (yield* providerPayments).filter((p) => p.mandateId === mandate)
        expect(charged).toHaveLength(1)
        expect(charged[0]).toMatchObject({ amount: 240 })
        expect(finished).toMatchObject({
          id: unfinished.id,
          issueDate: "2026-07-01",
          paymentStatus: "Pending",
          paymentReference: charged[0]!.id,
          mandateReference: mandate,
          finished: true
        })
      })
  )

  it.effect(
    "a completed mandate puts invoices waiting for one forward, and a second completion charges nothing more",
    () =>
      Effect.gen(function* () {
        const owner = yield* aUser("waiting")
        const tenant = yield* aTenant(owner, "Waiting Ltd")
        yield* anAcceptedReturn(tenant.id, "2026-06-05", 5)
        yield* run()
        const [waiting] = yield* invoicesOf(owner)
        expect(waiting).toMatchObject({ paymentStatus: "WaitingForMandate", total: 600 })
        const mandate = yield* mandateFor(owner)
        const [collecting] = yield* invoicesOf(owner)
        const charged = (yield* providerPayments).filter((p) => p.mandateId === mandate)
        expect(charged.map((p) => p.amount)).toEqual([600])
        expect(collecting).toMatchObject({ paymentStatus: "Pending", paymentReference: charged[0]!.id })
        yield* (yield* WaitingInvoices).putForward(owner.id, mandate)
        expect((yield* providerPayments).filter((p) => p.mandateId === mandate)).toHaveLength(1)
      })
  )

  it.effect(
    "an invoice the provider cannot be reached for is left to the next run; the run goes on with the others",
    () =>
      Effect.gen(function* () {
        const unreachable = yield* aUser("unreachable")
        const reference = yield* mandateFor(unreachable)
        yield* anAcceptedReturn((yield* aTenant(unreachable, "Unreachable Ltd")).id, "2026-06-05", 1)
        const waiting = yield* aUser("fine")
        yield* anAcceptedReturn((yield* aTenant(waiting, "Fine Ltd")).id, "2026-06-05", 1)
        yield* setFaults({
          createPayment: (real) => (payment, key) =>
            payment.mandateId === reference ? Effect.die(new Error("connect ECONNREFUSED")) : real(payment, key)
        })
        const report = yield* run()
        yield* noFaults
        expect(report.unfinished).toBe(1)
        expect((yield* invoicesOf(waiting)).map((i) => [i.paymentStatus, i.finished])).toEqual([
          ["WaitingForMandate", true]
        ])
        expect((yield* invoicesOf(unreachable)).map((i) => i.finished)).toEqual([false])
        yield* leasesRunOut
        const next = yield* run()
        expect(next.unfinished).toBe(0)
        expect((yield* invoicesOf(unreachable)).map((i) => [i.paymentStatus, i.finished])).toEqual([["Pending", true]])
      })
  )

  it.effect("an invoice whose payment was cancelled with its mandate is collected again on the next mandate", () =>
    Effect.gen(function* () {
      const owner = yield* aUser("cancelled")
      const first = yield* mandateFor(owner)
      yield* anAcceptedReturn((yield* aTenant(owner, "Cancelled Ltd")).id, "2026-06-05", 1)
      yield* run()
      const [pending] = yield* invoicesOf(owner)
      expect(pending).toMatchObject({ paymentStatus: "Pending", mandateReference: first })
      // The payer cancels the mandate; the provider cancels its pending payment with it.
      yield* (yield* Mandates).cancel().pipe(asUser(owner))
      const [cancelled] = yield* Effect.flatMap(BillingInvoices, (invoices) => invoices.list().pipe(asUser(owner)))
      expect(cancelled).toMatchObject({ paymentStatus: "Cancelled", paymentReference: pending?.paymentReference })
      const second = yield* mandateFor(owner)
      const [again] = yield* invoicesOf(owner)
      const onSecond = (yield* providerPayments).filter((p) => p.mandateId === second)
      expect(onSecond.map((p) => p.amount)).toEqual([120])
      expect(again).toMatchObject({
        paymentStatus: "Pending",
        paymentReference: onSecond[0]!.id,
        mandateReference: second
      })
    })
  )

  it.effect(
    "a listing refreshes a mandate's Pending and Failed invoices with one provider call, leaving another user's alone",
    () =>
      Effect.gen(function* () {
        const owner = yield* aUser("refresh")
        const other = yield* aUser("bystander")
        yield* mandateFor(owner)
        yield* mandateFor(other)
        const tenant = yield* aTenant(owner, "Refresh Ltd")
        const theirs = yield* aTenant(other, "Bystander Ltd")
        const months = ["2026-03-05", "2026-04-05", "2026-05-05", "2026-06-05"]
        for (const [n, month] of months.entries()) {
          yield* anAcceptedReturn(tenant.id, month, 1)
          if (n === 0) yield* anAcceptedReturn(theirs.id, month, 1)
          yield* run(`2026-0${n + 4}-01`)
        }
        const stored = yield* invoicesOf(owner)
        const [bystanding] = yield* invoicesOf(other)
        expect(stored.map((i) => i.paymentStatus)).toEqual(["Pending", "Pending", "Pending", "Pending"])
        // The provider moved every payment, the other user's too.
        const moved = ["paid_out", "failed", "confirmed", "submitted"]
        yield* Effect.flatMap(DirectDebitControl, ({ state }) =>
          Ref.update(state, (s) => {
            const payments = new Map(s.payments)
            for (const [n, invoice] of stored.entries()) {
              payments.set(invoice.paymentReference!, {
                ...payments.get(invoice.paymentReference!)!,
                status: moved[n]!
              })
            }
            const theirPayment = payments.get(bystanding!.paymentReference!)!
            payments.set(theirPayment.id, { ...theirPayment, status: "paid_out" })
            return { ...s, payments }
          })
        )
        const calls = yield* Ref.make<ReadonlyArray<string>>([])
        const record = (call: string) => Ref.update(calls, (c) => [...c, call])
        yield* setFaults({
          getPayment: (real) => (id) => Effect.zipRight(record(`getPayment ${id}`), real(id)),
          listPayments: (real) => (id) => Effect.zipRight(record(`listPayments ${id}`), real(id))
        })
        const listed = yield* Effect.flatMap(BillingInvoices, (invoices) => invoices.list().pipe(asUser(owner)))
        yield* noFaults
        expect(yield* Ref.get(calls)).toEqual([`listPayments ${stored[0]!.mandateReference}`])
        const expected = ["Paid", "Failed", "Paid", "Pending"]
        expect(listed.map((i) => [i.number, i.paymentStatus])).toEqual(stored.map((i, n) => [i.number, expected[n]]))
        expect((yield* invoicesOf(owner)).map((i) => i.paymentStatus)).toEqual(expected)
        expect((yield* invoicesOf(other)).map((i) => i.paymentStatus)).toEqual(["Pending"])
      })
  )

  it.effect("a provider listing that hangs does not hold the list up: it answers the last known statuses", () =>
    Effect.gen(function* () {
      const owner = yield* aUser("hang")
      const mandate = yield* mandateFor(owner)
      yield* anAcceptedReturn((yield* aTenant(owner, "Hang Ltd")).id, "2026-06-05", 1)
      yield* run()
      const [pending] = yield* invoicesOf(owner)
      yield* Effect.flatMap(DirectDebitControl, ({ state }) =>
        Ref.update(state, (s) => {
          const paid = s.payments.get(pending!.paymentReference!)!
          return { ...s, payments: new Map(s.payments).set(paid.id, { ...paid, status: "paid_out" }) }
        })
      )
      yield* setFaults({ listPayments: (real) => (id) => (id === mandate ? Effect.never : real(id)) })
      const started = Date.now()
      const listed = yield* Effect.flatMap(BillingInvoices, (invoices) => invoices.list().pipe(asUser(owner))).pipe(
        Effect.provideService(PaymentRefreshTimeout, Duration.millis(300))
      )
      expect(Date.now() - started).toBeLessThan(5000)
      yield* noFaults
      expect(listed.map((i) => i.paymentStatus)).toEqual(["Pending"])
      expect((yield* invoicesOf(owner)).map((i) => i.paymentStatus)).toEqual(["Pending"])
      const [again] = yield* Effect.flatMap(BillingInvoices, (invoices) => invoices.list().pipe(asUser(owner)))
      expect(again?.paymentStatus).toBe("Paid")
    })
  )

  it.effect("another user's invoice and PDF are never reachable; a malformed id is not found", () =>
    Effect.gen(function* () {
      const owner = yield* aUser("mine")
      const other = yield* aUser("theirs")
      const tenant = yield* aTenant(owner, "Mine Ltd")
      yield* anAcceptedReturn(tenant.id, "2026-06-05", 1)
      yield* run()
      const [invoice] = yield* invoicesOf(owner)
      assert(invoice !== undefined)
      const invoices = yield* BillingInvoices
      expect((yield* Effect.flip(invoices.get(invoice.id).pipe(asUser(other))))._tag).toBe("NotFound")
      expect((yield* Effect.flip(invoices.pdf(invoice.id).pipe(asUser(other))))._tag).toBe("NotFound")
      expect((yield* Effect.flip(invoices.get("not-a-uuid").pipe(asUser(owner))))._tag).toBe("NotFound")
      expect(yield* invoices.list().pipe(asUser(other))).toEqual([])
    })
  )

  it.effect("two racing runs never bill a return twice", () =>
    Effect.gen(function* () {
      const owners = yield* Effect.forEach(Array.from({ length: 12 }), (_, n) => aUser(`race${n}`))
      const returns = yield* Effect.forEach(owners, (owner, n) =>
        Effect.gen(function* () {
          const tenant = yield* aTenant(owner, `Race ${n} Ltd`)
          return [
            yield* anAcceptedReturn(tenant.id, "2026-05-05", 1),
            yield* anAcceptedReturn(tenant.id, "2026-06-05", 2)
          ]
        })
      )
      const [first, second] = yield* Effect.all([run(), run()], { concurrency: 2 })
      expect(first.issued + second.issued).toBeGreaterThanOrEqual(owners.length)
      const repo = yield* BillingInvoiceRepo
      const billed = yield* Effect.forEach(owners, (owner) =>
        Effect.flatMap(repo.list(owner.id), (list) =>
          Effect.forEach(list, (i) =>
            Effect.map(repo.find(owner.id, i.id), (found) => Option.getOrThrow(found).lines.map((l) => l.returnId))
          )
        )
      )
      // Each owner has exactly one invoice, holding exactly their two returns.
      expect(billed.map((invoices) => invoices.length)).toEqual(owners.map(() => 1))
      expect(billed.map((invoices) => invoices.flat().sort())).toEqual(returns.map((r) => [...r].sort()))
    })
  )
})
