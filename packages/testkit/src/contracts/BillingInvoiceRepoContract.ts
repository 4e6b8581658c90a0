import { draftInvoice } from "@cisbook/core/billing/billinginvoices/InvoiceDraft"
import { BillingInvoiceId, type UserId } from "@cisbook/core/Ids"
import { BillingInvoiceRepo } from "@cisbook/core/billing/billinginvoices/BillingInvoiceRepo"
import { MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { UserRepo } from "@cisbook/core/users/UserRepo"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import type { User } from "@cisbook/core/users/User"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at, type ContractIt, fresh, membership, newTenant, newUser } from "./Fixtures.js"
import { accepted, newReturn } from "./MonthlyReturnRepoContract.js"

const storedUser = Effect.tap(newUser(), (user) => Effect.flatMap(UserRepo, (users) => users.insert(user)))

const ownedTenant = (owner: User) =>
  Effect.tap(newTenant(), (tenant) =>
    Effect.flatMap(TenantRepo, (tenants) => tenants.insert(tenant, membership(tenant, owner, "Owner")))
  )

/** A return of the tenant, filed and accepted (at(1)); with `gatewayTest`, sent as a test and filed nowhere. */
const acceptedReturn = (tenant: Tenant, periodEnd: string, gatewayTest = false) =>
  Effect.gen(function* () {
    const returns = yield* MonthlyReturnRepo
    const filed = yield* newReturn(tenant, periodEnd, 0)
    yield* returns.insert(filed)
    // Leased until the claim's own instant: the other tests' returns it takes are free again at once.
    const claimed = (yield* returns.claimDue(at(0), at(0), 1000)).find((c) => c.monthlyReturn.id === filed.id)!
    yield* returns.record(claimed, accepted(at(1), "C0FFEE00", gatewayTest))
    return filed
  })

/** The user's returns claimed for a new invoice, drafted at 1.00 a subcontractor and stored. */
const invoiced = (userId: UserId, issueDate: string) =>
  Effect.gen(function* () {
    const repo = yield* BillingInvoiceRepo
    const id = BillingInvoiceId.make((yield* fresh).id)
    const claimed = yield* repo.claimUsage(userId, id)
    return yield* repo.insert(draftInvoice({ id, userId, issueDate }, claimed, 100), at(2))
  })

const numberOf = (invoice: { readonly number: string }) => Number(invoice.number.replace("CB-", ""))

export const billingInvoiceRepoContract = (it: ContractIt) => {
  it.effect("bills the accepted, uninvoiced returns of the tenants the user owns, oldest tax month first", () =>
    Effect.gen(function* () {
      const repo = yield* BillingInvoiceRepo
      const owner = yield* storedUser
      const member = yield* storedUser
      const first = yield* ownedTenant(owner)
      const second = yield* ownedTenant(owner)
      yield* Effect.flatMap(TenantRepo, (tenants) => tenants.addMember(membership(first, member, "Member")))
      const june = yield* acceptedReturn(first, "2026-06-05")
      const may = yield* acceptedReturn(second, "2026-05-05")
      yield* Effect.flatMap(MonthlyReturnRepo, (returns) =>
        Effect.flatMap(newReturn(first, "2026-07-05", 0), returns.insert)
      )
      const usage = yield* repo.usage(owner.id)
      expect(usage.map((u) => [u.returnId, u.tenant, u.tenantName, u.periodEnd, u.acceptedAt])).toEqual([
        [may.id, second.code, second.name, "2026-05-05", at(1)],
        [june.id, first.code, first.name, "2026-06-05", at(1)]
      ])
      expect(usage[0]!.subcontractors.map((s) => [s.contactCode, s.name])).toEqual([
        ["ACME", "ACME Ltd"],
        ["BOB", "BOB Ltd"]
      ])
      expect(yield* repo.usage(member.id)).toEqual([])
      const withUsage = yield* repo.usersWithUsage
      expect(withUsage).toContain(owner.id)
      expect(withUsage).not.toContain(member.id)
    })
  )

  it.effect("never bills a return HMRC answered as a test (GatewayTest): it was filed nowhere", () =>
    Effect.gen(function* () {
      const repo = yield* BillingInvoiceRepo
      const owner = yield* storedUser
      const tenant = yield* ownedTenant(owner)
      yield* acceptedReturn(tenant, "2026-04-05", true)
      expect(yield* repo.usage(owner.id)).toEqual([])
      expect(yield* repo.usersWithUsage).not.toContain(owner.id)
      expect(yield* repo.claimUsage(owner.id, BillingInvoiceId.make((yield* fresh).id))).toEqual([])
      const june = yield* acceptedReturn(tenant, "2026-06-05")
      expect((yield* repo.usage(owner.id)).map((u) => u.returnId)).toEqual([june.id])
    })
  )

  it.effect("claims each return for one invoice only, and the return reads as invoiced", () =>
    Effect.gen(function* () {
      const repo = yield* BillingInvoiceRepo
      const owner = yield* storedUser
      const tenant = yield* ownedTenant(owner)
      const june = yield* acceptedReturn(tenant, "2026-06-05")
      const id = BillingInvoiceId.make((yield* fresh).id)
      expect(yield* repo.claimUsage(owner.id, id)).toEqual([
        {
          returnId: june.id,
          tenantId: tenant.id,
          tenant: tenant.code,
          tenantName: tenant.name,
          periodEnd: "2026-06-05",
          subcontractors: 2
        }
      ])
      expect(yield* repo.claimUsage(owner.id, BillingInvoiceId.make((yield* fresh).id))).toEqual([])
      expect(yield* repo.usage(owner.id)).toEqual([])
      expect(yield* repo.usersWithUsage).not.toContain(owner.id)
      const found = yield* Effect.flatMap(MonthlyReturnRepo, (returns) => returns.find(tenant.id, june.id))
      expect(Option.map(found, (r) => r.invoiced)).toEqual(Option.some(true))
    })
  )

  it.effect("numbers invoices in one sequence, WaitingForMandate with their lines, the user's latest first", () =>
    Effect.gen(function* () {
      const repo = yield* BillingInvoiceRepo
      const owner = yield* storedUser
      const other = yield* storedUser
      const tenant = yield* ownedTenant(owner)
      yield* acceptedReturn(tenant, "2026-05-05")
      const may = yield* invoiced(owner.id, "2026-06-01")
      const june = yield* acceptedReturn(tenant, "2026-06-05")
      const later = yield* invoiced(owner.id, "2026-07-01")
      expect(numberOf(later)).toBeGreaterThan(numberOf(may))
      expect(later.number).toMatch(/^CB-\d{6}$/)
      expect(later).toMatchObject({
        userId: owner.id,
        issueDate: "2026-07-01",
        periodStart: "2026-06-05",
        periodEnd: "2026-06-05",
        currency: "GBP",
        subtotal: 200,
        vat: 40,
        total: 240,
        paymentStatus: "WaitingForMandate",
        paymentReference: null,
        mandateReference: null,
        hasPdf: false,
        finished: false
      })
      const found = yield* repo.find(owner.id, later.id)
      expect(Option.map(found, ({ invoice }) => invoice)).toEqual(Option.some(later))
      expect(
        Option.getOrThrow(found).lines.map((l) => [l.returnId, l.tenant, l.quantity, l.unitPrice, l.amount])
      ).toEqual([[june.id, tenant.code, 2, 100, 200]])
      expect(yield* repo.find(other.id, later.id)).toEqual(Option.none())
      expect((yield* repo.list(owner.id)).map((i) => i.id)).toEqual([later.id, may.id])
      expect(yield* repo.list(other.id)).toEqual([])
    })
  )

  it.effect("leases unfinished invoices lowest number first, each until its lease runs out; a finished one never", () =>
    Effect.gen(function* () {
      const repo = yield* BillingInvoiceRepo
      const owner = yield* storedUser
      const tenant = yield* ownedTenant(owner)
      yield* acceptedReturn(tenant, "2026-05-05")
      const first = yield* invoiced(owner.id, "2026-06-01")
      yield* acceptedReturn(tenant, "2026-06-05")
      const second = yield* invoiced(owner.id, "2026-07-01")
      const mine = (claimed: ReadonlyArray<{ readonly invoice: { readonly id: BillingInvoiceId } }>) =>
        claimed.map((c) => c.invoice.id).filter((id) => id === first.id || id === second.id)
      const claimed = yield* repo.claimUnfinished(at(10), at(20), 1000)
      expect(mine(claimed)).toEqual([first.id, second.id])
      expect(claimed.find((c) => c.invoice.id === second.id)!.lines).toHaveLength(1)
      expect(mine(yield* repo.claimUnfinished(at(19), at(30), 1000))).toEqual([])
      yield* repo.recordCollection(
        owner.id,
        first.id,
        { paymentStatus: "WaitingForMandate", paymentReference: null, mandateReference: null },
        true
      )
      expect(mine(yield* repo.claimUnfinished(at(20), at(30), 1000))).toEqual([second.id])
      expect(mine(yield* repo.claimUnfinished(at(40), at(50), 1000))).toEqual([second.id])
    })
  )

  it.effect("keeps the PDF, and puts forward only a finished invoice that waits for collection", () =>
    Effect.gen(function* () {
      const repo = yield* BillingInvoiceRepo
      const owner = yield* storedUser
      const tenant = yield* ownedTenant(owner)
      yield* acceptedReturn(tenant, "2026-05-05")
      const invoice = yield* invoiced(owner.id, "2026-06-01")
      expect(yield* repo.pdf(owner.id, invoice.id)).toEqual(Option.none())
      const pdf = new TextEncoder().encode("%PDF-1.7 the invoice")
      yield* repo.storePdf(owner.id, invoice.id, pdf)
      expect(yield* repo.pdf(owner.id, invoice.id)).toEqual(Option.some(pdf))
      const pending = { paymentStatus: "Pending", paymentReference: "PM123", mandateReference: "MD123" } as const
      expect(yield* repo.recordPutForward(owner.id, invoice.id, pending)).toBe(false)
      yield* repo.recordCollection(
        owner.id,
        invoice.id,
        { paymentStatus: "WaitingForMandate", paymentReference: null, mandateReference: null },
        true
      )
      expect((yield* repo.waitingForCollection(owner.id)).map((i) => i.id)).toEqual([invoice.id])
      expect(yield* repo.recordPutForward(owner.id, invoice.id, pending)).toBe(true)
      expect(yield* repo.recordPutForward(owner.id, invoice.id, pending)).toBe(false)
      expect(yield* repo.waitingForCollection(owner.id)).toEqual([])
      const found = Option.getOrThrow(yield* repo.find(owner.id, invoice.id)).invoice
      expect(found).toMatchObject({ ...pending, hasPdf: true, finished: true })
    })
  )

  it.effect("records when a payment failed; answers the Failed invoices; records a retry once per count", () =>
    Effect.gen(function* () {
      const repo = yield* BillingInvoiceRepo
      const owner = yield* storedUser
      const tenant = yield* ownedTenant(owner)
      yield* acceptedReturn(tenant, "2026-05-05")
      const invoice = yield* invoiced(owner.id, "2026-06-01")
      const pending = { paymentStatus: "Pending", paymentReference: "PM1", mandateReference: "MD1" } as const
      yield* repo.recordCollection(owner.id, invoice.id, pending, true)
      const current = () => Effect.map(repo.find(owner.id, invoice.id), (found) => Option.getOrThrow(found).invoice)
      const failed = () =>
        Effect.map(repo.failedInvoices, (all) => all.filter((i) => i.id === invoice.id).map((i) => i.paymentRetries))
      expect(yield* current()).toMatchObject({ failedAt: null, paymentRetries: 0 })
      expect(yield* failed()).toEqual([])

      expect(yield* repo.movePaymentStatus(yield* current(), "Pending", "Failed", at(100))).toBe(true)
      expect(yield* current()).toMatchObject({ paymentStatus: "Failed", failedAt: at(100) })
      expect(yield* failed()).toEqual([0])

      const read = yield* current()
      expect(yield* repo.recordRetry(read, "Pending")).toBe(true)
      // A second record of the same retry (a racing run) changes nothing.
      expect(yield* repo.recordRetry(read, "Pending")).toBe(false)
      expect(yield* current()).toMatchObject({ paymentStatus: "Pending", paymentRetries: 1, failedAt: at(100) })
      expect(yield* failed()).toEqual([])

      // A move to another status keeps the failure's time; the next failure records its own.
      expect(yield* repo.movePaymentStatus(yield* current(), "Pending", "Paid", at(150))).toBe(true)
      expect(yield* current()).toMatchObject({ paymentStatus: "Paid", failedAt: at(100) })
      expect(yield* repo.movePaymentStatus(yield* current(), "Paid", "Failed", at(200))).toBe(true)
      expect(yield* failed()).toEqual([1])
      expect(yield* repo.movePaymentStatus(yield* current(), "Failed", "WaitingForMandate", at(300))).toBe(true)
      expect(yield* current()).toMatchObject({ paymentStatus: "WaitingForMandate", failedAt: at(200) })
      expect(yield* failed()).toEqual([])
    })
  )

  it.effect("records when a payment was last read: by a move, or for the user's invoices named", () =>
    Effect.gen(function* () {
      const repo = yield* BillingInvoiceRepo
      const owner = yield* storedUser
      const other = yield* storedUser
      const tenant = yield* ownedTenant(owner)
      const theirs = yield* ownedTenant(other)
      yield* acceptedReturn(tenant, "2026-05-05")
      const first = yield* invoiced(owner.id, "2026-06-01")
      yield* acceptedReturn(tenant, "2026-06-05")
      const second = yield* invoiced(owner.id, "2026-07-01")
      yield* acceptedReturn(theirs, "2026-05-05")
      const another = yield* invoiced(other.id, "2026-06-01")
      const readAt = () =>
        Effect.map(repo.list(owner.id), (mine) => Object.fromEntries(mine.map((i) => [i.id, i.paymentReadAt])))
      expect(yield* readAt()).toEqual({ [first.id]: null, [second.id]: null })

      // Another user's invoice named with the owner's is not the owner's to record.
      yield* repo.recordPaymentsRead(owner.id, [first.id, another.id], at(100))
      expect(yield* readAt()).toEqual({ [first.id]: at(100), [second.id]: null })
      expect((yield* repo.list(other.id)).map((i) => i.paymentReadAt)).toEqual([null])
      yield* repo.recordPaymentsRead(owner.id, [], at(150))

      expect(yield* repo.movePaymentStatus(second, "WaitingForMandate", "Cancelled", at(200))).toBe(true)
      expect(yield* readAt()).toEqual({ [first.id]: at(100), [second.id]: at(200) })
      // A move that lost the race records nothing.
      expect(yield* repo.movePaymentStatus(second, "WaitingForMandate", "Paid", at(300))).toBe(false)
      expect(yield* readAt()).toEqual({ [first.id]: at(100), [second.id]: at(200) })
    })
  )
}
