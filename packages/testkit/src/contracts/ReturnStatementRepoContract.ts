import { ConnectionId, ContactId, MailId } from "@cisbook/core/Ids"
import { MonthlyReturn, ReturnLine } from "@cisbook/core/returns/MonthlyReturn"
import { MonthlyReturnRepo } from "@cisbook/core/returns/MonthlyReturnRepo"
import {
  type ClaimedDelivery,
  type IssuedStatement,
  ReturnStatementRepo
} from "@cisbook/core/returns/ReturnStatementRepo"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at, type ContractIt, fresh, storedTenant } from "./Fixtures.js"
import { newReturn } from "./MonthlyReturnRepoContract.js"

const mailedPdf = new Uint8Array([37, 80, 68, 70, 45, 49, 0, 255])
const drawnPdf = new Uint8Array([37, 80, 68, 70, 45, 50, 10, 13])

/** A stored return of the tenant, with its two lines' contacts made unique. */
const storedReturn = (tenant: Tenant, periodEnd: string) =>
  Effect.gen(function* () {
    const base = yield* newReturn(tenant, periodEnd, 0)
    const r = new MonthlyReturn({
      ...base,
      lines: yield* Effect.forEach(base.lines, (line) =>
        Effect.map(fresh, ({ id }) => new ReturnLine({ ...line, contactId: ContactId.make(id) }))
      )
    })
    yield* Effect.flatMap(MonthlyReturnRepo, (repo) => repo.insert(r))
    return r
  })

/** The statement of the return's `i`th line as the acceptance records it. */
const issued = (
  r: MonthlyReturn,
  i: number,
  fields: { readonly mailed?: boolean; readonly deliver?: boolean; readonly issuedAt?: Date } = {}
) =>
  Effect.gen(function* () {
    const line = r.lines[i]!
    return {
      tenantId: r.tenantId,
      monthlyReturnId: r.id,
      contactId: line.contactId,
      contactCode: line.contactCode,
      pdf: fields.mailed ? mailedPdf : null,
      mailId: fields.mailed ? MailId.make((yield* fresh).id) : null,
      deliverVia: fields.deliver ? ConnectionId.make((yield* fresh).id) : null,
      issuedAt: fields.issuedAt ?? at(0)
    } satisfies IssuedStatement
  })

const claimAll = (now: Date, leaseUntil: Date) =>
  Effect.flatMap(ReturnStatementRepo, (repo) => repo.claimDeliveries(now, leaseUntil, 1000))

/** The claims of the return's statements among all those claimed. */
const mine = (r: MonthlyReturn, claimed: ReadonlyArray<ClaimedDelivery>) =>
  claimed.filter((c) => c.tenantId === r.tenantId && c.monthlyReturnId === r.id)

export const returnStatementRepoContract = (it: ContractIt) => {
  it.effect("records each statement that went out once, lists a return's in its tenant only, with the PDF mailed", () =>
    Effect.gen(function* () {
      const repo = yield* ReturnStatementRepo
      const tenant = yield* storedTenant
      const r = yield* storedReturn(tenant, "2026-06-05")
      const mailed = yield* issued(r, 0, { mailed: true })
      const delivered = yield* issued(r, 1, { deliver: true })
      yield* repo.insert([mailed, delivered])
      // A second record of the same statement changes nothing.
      yield* repo.insert([{ ...(yield* issued(r, 0, { deliver: true })), pdf: drawnPdf }])
      const listed = yield* repo.list(tenant.id, r.id)
      expect([...listed].sort((a, b) => (a.contactId < b.contactId ? -1 : 1))).toEqual(
        [
          { contactId: mailed.contactId, mailId: mailed.mailId, delivery: null },
          {
            contactId: delivered.contactId,
            mailId: null,
            delivery: { status: "Due", deliveredTo: null, deliveredAt: null }
          }
        ].sort((a, b) => (a.contactId < b.contactId ? -1 : 1))
      )
      expect(Option.map(yield* repo.pdf(tenant.id, r.id, mailed.contactId), (pdf) => new Uint8Array(pdf))).toEqual(
        Option.some(mailedPdf)
      )
      expect(yield* repo.pdf(tenant.id, r.id, delivered.contactId)).toEqual(Option.none())
      const other = yield* storedTenant
      expect(yield* repo.list(other.id, r.id)).toEqual([])
      expect(yield* repo.pdf(other.id, r.id, mailed.contactId)).toEqual(Option.none())
      expect(yield* repo.insert([])).toBeUndefined()
    })
  )

  it.effect("leases a Due delivery to one worker until the lease runs out; records only under the current lease", () =>
    Effect.gen(function* () {
      const repo = yield* ReturnStatementRepo
      const tenant = yield* storedTenant
      const r = yield* storedReturn(tenant, "2026-05-05")
      const mailedToo = yield* issued(r, 0, { mailed: true, deliver: true })
      const deliverOnly = yield* issued(r, 1, { deliver: true })
      yield* repo.insert([mailedToo, deliverOnly])
      const first = mine(r, yield* claimAll(at(60_000), at(60_005)))
      expect(first.map((c) => [c.contactId, c.connectionId]).sort()).toEqual(
        [
          [mailedToo.contactId, mailedToo.deliverVia],
          [deliverOnly.contactId, deliverOnly.deliverVia]
        ].sort()
      )
      expect(mine(r, yield* claimAll(at(60_004), at(60_009)))).toEqual([])
      const second = mine(r, yield* claimAll(at(60_005), at(60_010)))
      expect(second).toHaveLength(2)
      expect(second[0]!.leaseToken).not.toBe(first[0]!.leaseToken)

      const sub = yield* storedTenant
      const delivered = (pdf: Uint8Array, minutes: number) =>
        ({ _tag: "Delivered", to: { tenantId: sub.id, tenantCode: sub.code }, at: at(minutes), pdf }) as const
      const claimOf = (claims: ReadonlyArray<ClaimedDelivery>, contactId: ContactId) =>
        claims.find((c) => c.contactId === contactId)!
      // The first lease was taken over: what it records changes nothing.
      expect(yield* repo.recordDelivery(claimOf(first, deliverOnly.contactId), delivered(drawnPdf, 60_006))).toBe(false)
      expect(yield* repo.recordDelivery(claimOf(second, deliverOnly.contactId), delivered(drawnPdf, 60_007))).toBe(true)
      expect(yield* repo.recordDelivery(claimOf(second, mailedToo.contactId), delivered(drawnPdf, 60_008))).toBe(true)
      // Recorded once: the same lease cannot record it again.
      expect(yield* repo.recordDelivery(claimOf(second, deliverOnly.contactId), { _tag: "Dropped", at: at(1) })).toBe(
        false
      )
      const listed = yield* repo.list(tenant.id, r.id)
      expect(listed.find((s) => s.contactId === deliverOnly.contactId)?.delivery).toEqual({
        status: "Delivered",
        deliveredTo: sub.code,
        deliveredAt: at(60_007)
      })
      // The delivery keeps the PDF it delivered, unless the mailed one was kept already.
      const pdfOf = (contactId: ContactId) =>
        Effect.map(
          repo.pdf(tenant.id, r.id, contactId),
          Option.map((pdf) => new Uint8Array(pdf))
        )
      expect(yield* pdfOf(deliverOnly.contactId)).toEqual(Option.some(drawnPdf))
      expect(yield* pdfOf(mailedToo.contactId)).toEqual(Option.some(mailedPdf))
      expect(mine(r, yield* claimAll(at(70_000), at(70_005)))).toEqual([])
    })
  )

  it.effect("a dropped delivery is due no more and delivered to no one", () =>
    Effect.gen(function* () {
      const repo = yield* ReturnStatementRepo
      const tenant = yield* storedTenant
      const r = yield* storedReturn(tenant, "2026-04-05")
      const statement = yield* issued(r, 0, { deliver: true })
      yield* repo.insert([statement])
      const [claimed] = mine(r, yield* claimAll(at(80_000), at(80_005)))
      expect(yield* repo.recordDelivery(claimed!, { _tag: "Dropped", at: at(80_001) })).toBe(true)
      expect(yield* repo.list(tenant.id, r.id)).toEqual([
        {
          contactId: statement.contactId,
          mailId: null,
          delivery: { status: "Dropped", deliveredTo: null, deliveredAt: null }
        }
      ])
      expect(mine(r, yield* claimAll(at(90_000), at(90_005)))).toEqual([])
      expect(yield* repo.pdf(tenant.id, r.id, statement.contactId)).toEqual(Option.none())
    })
  )

  it.effect("claims no more than the limit, and no statement that was only mailed", () =>
    Effect.gen(function* () {
      const repo = yield* ReturnStatementRepo
      const tenant = yield* storedTenant
      const r = yield* storedReturn(tenant, "2026-03-05")
      yield* repo.insert([yield* issued(r, 0, { mailed: true }), yield* issued(r, 1, { deliver: true })])
      const claimed = mine(r, yield* claimAll(at(100_000), at(100_005)))
      expect(claimed.map((c) => c.contactId)).toEqual([r.lines[1]!.contactId])
      expect(yield* repo.claimDeliveries(at(200_000), at(200_005), 0)).toEqual([])
    })
  )
}
