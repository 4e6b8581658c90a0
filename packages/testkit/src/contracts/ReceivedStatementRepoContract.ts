import { ContactId, MonthlyReturnId, ReceivedStatementId } from "@cisbook/core/Ids"
import {
  ReceivedStatement,
  StatementContact,
  StatementContractor,
  StatementSource
} from "@cisbook/core/statements/ReceivedStatement"
import { ReceivedStatementRepo } from "@cisbook/core/statements/ReceivedStatementRepo"
import type { Tenant } from "@cisbook/core/tenants/Tenant"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at, type ContractIt, fresh, storedTenant } from "./Fixtures.js"

const pdf = new Uint8Array([37, 80, 68, 70, 45, 0, 255, 10])

/** A statement `contractor` delivered into `tenant`, of a return line of its own unless `source` is given. */
const received = (
  tenant: Tenant,
  contractor: Tenant,
  fields: { readonly periodEnd?: string; readonly receivedMinutes?: number; readonly source?: StatementSource } = {}
) =>
  Effect.gen(function* () {
    const { id } = yield* fresh
    return new ReceivedStatement({
      id: ReceivedStatementId.make(id),
      tenantId: tenant.id,
      source:
        fields.source ??
        new StatementSource({
          tenantId: contractor.id,
          monthlyReturnId: MonthlyReturnId.make((yield* fresh).id),
          contactId: ContactId.make((yield* fresh).id)
        }),
      contractor: new StatementContractor({
        tenantCode: contractor.code,
        name: contractor.name,
        employerReference: "123/AB45678"
      }),
      contact: new StatementContact({ id: ContactId.make((yield* fresh).id), code: "LOVELACE" }),
      periodEnd: fields.periodEnd ?? "2026-06-05",
      taxTreatment: "Unmatched",
      verificationNumber: "V1234567890/A",
      grossAmount: 99_999_999_999,
      materials: 36_700,
      deducted: 66_000,
      receivedAt: at(fields.receivedMinutes ?? 0)
    })
  })

export const receivedStatementRepoContract = (it: ContractIt) => {
  it.effect("keeps every member of a statement and its PDF, found by tenant and id only", () =>
    Effect.gen(function* () {
      const repo = yield* ReceivedStatementRepo
      const tenant = yield* storedTenant
      const contractor = yield* storedTenant
      const statement = yield* received(tenant, contractor)
      expect(yield* repo.insert(statement, pdf)).toBe(true)
      expect(yield* repo.find(tenant.id, statement.id)).toEqual(Option.some(statement))
      expect(Option.map(yield* repo.pdf(tenant.id, statement.id), (bytes) => new Uint8Array(bytes))).toEqual(
        Option.some(pdf)
      )
      expect(yield* repo.find(contractor.id, statement.id)).toEqual(Option.none())
      expect(yield* repo.pdf(contractor.id, statement.id)).toEqual(Option.none())
      expect(yield* repo.list(contractor.id, { from: null, to: null })).toEqual([])
      const nullable = new ReceivedStatement({
        ...(yield* received(tenant, contractor)),
        contractor: new StatementContractor({ tenantCode: contractor.code, name: "Renamed", employerReference: null }),
        verificationNumber: null,
        taxTreatment: "Gross"
      })
      yield* repo.insert(nullable, pdf)
      expect(yield* repo.find(tenant.id, nullable.id)).toEqual(Option.some(nullable))
    })
  )

  it.effect("holds a return line's statement once in a tenant, whichever copy comes first", () =>
    Effect.gen(function* () {
      const repo = yield* ReceivedStatementRepo
      const tenant = yield* storedTenant
      const contractor = yield* storedTenant
      const first = yield* received(tenant, contractor)
      const again = yield* received(tenant, contractor, { source: first.source, receivedMinutes: 5 })
      expect(yield* repo.insert(first, pdf)).toBe(true)
      expect(yield* repo.insert(again, new Uint8Array([1]))).toBe(false)
      expect(yield* repo.list(tenant.id, { from: null, to: null })).toEqual([first])
      expect(yield* repo.find(tenant.id, again.id)).toEqual(Option.none())
      // Another line of the same return is a statement of its own.
      const sibling = yield* received(tenant, contractor, {
        source: new StatementSource({ ...first.source, contactId: ContactId.make((yield* fresh).id) })
      })
      expect(yield* repo.insert(sibling, pdf)).toBe(true)
    })
  )

  it.effect("lists latest periodEnd first, then latest received, within the bounds, both included", () =>
    Effect.gen(function* () {
      const repo = yield* ReceivedStatementRepo
      const tenant = yield* storedTenant
      const contractor = yield* storedTenant
      const may = yield* received(tenant, contractor, { periodEnd: "2026-05-05" })
      const juneEarly = yield* received(tenant, contractor, { periodEnd: "2026-06-05", receivedMinutes: 1 })
      const juneLate = yield* received(tenant, contractor, { periodEnd: "2026-06-05", receivedMinutes: 2 })
      const july = yield* received(tenant, contractor, { periodEnd: "2026-07-05" })
      for (const s of [juneEarly, may, july, juneLate]) yield* repo.insert(s, pdf)
      const ids = (from: string | null, to: string | null) =>
        Effect.map(repo.list(tenant.id, { from, to }), (all) => all.map((s) => s.id))
      expect(yield* ids(null, null)).toEqual([july.id, juneLate.id, juneEarly.id, may.id])
      expect(yield* ids("2026-05-05", "2026-06-05")).toEqual([juneLate.id, juneEarly.id, may.id])
      expect(yield* ids("2026-05-06", null)).toEqual([july.id, juneLate.id, juneEarly.id])
      expect(yield* ids(null, "2026-06-04")).toEqual([may.id])
      expect(yield* ids("2026-08-01", null)).toEqual([])
    })
  )
}
