import type { ContactImportRow } from "@cisbook/core/contacts/ImportAnalysis"
import { ImportAnalysisRepo } from "@cisbook/core/contacts/ImportAnalysisRepo"
import { ImportAnalysisId } from "@cisbook/core/Ids"
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { at, type ContractIt, fresh, storedTenant } from "./Fixtures.js"

const key = { fileDigest: "9f86d081884c7d659a2feaa0c55ad015", analyserVersion: 1, latestVerificationDate: "2026-01-06" }

const row = (rowId: number, name: string): ContactImportRow => ({
  rowId,
  subcontractor: {
    name: `${name} — "quoted", with a tab\tand a line\nbreak`,
    email: null,
    externalId: null,
    isCustomer: false,
    isSupplier: true,
    isCisSubcontractor: true,
    vatRegistered: false,
    vatNumber: null,
    lastSdcDate: null,
    cisDetails: {
      type: "SoleTrader",
      title: null,
      firstName: name,
      secondName: null,
      lastName: "Trader",
      tradingName: null,
      utr: "2234567890",
      niNumber: null,
      companyNumber: null
    },
    supplierSettings: { defaultVatRate: "NoVat", paymentTermsDays: null }
  },
  verification: { verificationNumber: "V1234567890", verificationDate: "2026-01-05", taxTreatment: "Gross" },
  skipReason: null,
  duplicateOf: null
})

const skipped: ContactImportRow = {
  rowId: 3,
  subcontractor: null,
  verification: null,
  skipReason: "The row has no name.",
  duplicateOf: null
}

const newId = Effect.map(fresh, ({ id }) => ImportAnalysisId.make(id))

export const importAnalysisRepoContract = (it: ContractIt) => {
  it.effect("keeps an analysis batch by batch, found by its key once whole, its rows as they were", () =>
    Effect.gen(function* () {
      const repo = yield* ImportAnalysisRepo
      const tenant = yield* storedTenant
      const id = yield* newId
      yield* repo.begin(tenant.id, id, key, at(0), at(-24 * 60))
      yield* repo.addBatch(tenant.id, id, 0, [row(1, "Ada"), row(2, "Zoë")])
      yield* repo.addBatch(tenant.id, id, 1, [skipped])
      // Not whole yet: not found.
      expect(yield* repo.findWhole(tenant.id, key, at(-60))).toEqual(Option.none())
      yield* repo.complete(tenant.id, id, 3)
      expect(yield* repo.findWhole(tenant.id, key, at(-60))).toEqual(Option.some({ id, rowCount: 3 }))
      expect(yield* repo.batch(tenant.id, id, 0)).toEqual(Option.some([row(1, "Ada"), row(2, "Zoë")]))
      expect(yield* repo.batch(tenant.id, id, 1)).toEqual(Option.some([skipped]))
      expect(yield* repo.batch(tenant.id, id, 2)).toEqual(Option.none())
    })
  )

  it.effect("finds only the tenant's own, of the same key, made since the time asked, the newest first", () =>
    Effect.gen(function* () {
      const repo = yield* ImportAnalysisRepo
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      const whole = (tenantId: typeof tenant.id, made: Date, k = key) =>
        Effect.gen(function* () {
          const id = yield* newId
          yield* repo.begin(tenantId, id, k, made, at(-24 * 60))
          yield* repo.addBatch(tenantId, id, 0, [skipped])
          yield* repo.complete(tenantId, id, 1)
          return id
        })
      yield* whole(tenant.id, at(0))
      const newer = yield* whole(tenant.id, at(5))
      yield* whole(tenant.id, at(10), { ...key, fileDigest: "another file" })
      yield* whole(tenant.id, at(10), { ...key, analyserVersion: 2 })
      yield* whole(tenant.id, at(10), { ...key, latestVerificationDate: "2026-01-07" })
      const theirs = yield* whole(other.id, at(20))

      expect(yield* repo.findWhole(tenant.id, key, at(0))).toEqual(Option.some({ id: newer, rowCount: 1 }))
      expect(yield* repo.findWhole(tenant.id, key, at(6))).toEqual(Option.none())
      expect(yield* repo.findWhole(other.id, key, at(0))).toEqual(Option.some({ id: theirs, rowCount: 1 }))
      // Another tenant's analysis is not read by its id.
      expect(yield* repo.batch(tenant.id, theirs, 0)).toEqual(Option.none())
    })
  )

  it.effect("forgets the tenant's analyses made before the time a new one says, and only the tenant's", () =>
    Effect.gen(function* () {
      const repo = yield* ImportAnalysisRepo
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      const old = yield* newId
      yield* repo.begin(tenant.id, old, key, at(0), at(-60))
      yield* repo.addBatch(tenant.id, old, 0, [skipped])
      yield* repo.complete(tenant.id, old, 1)
      const theirs = yield* newId
      yield* repo.begin(other.id, theirs, key, at(0), at(-60))
      yield* repo.complete(other.id, theirs, 0)

      yield* repo.begin(tenant.id, yield* newId, key, at(120), at(60))
      expect(yield* repo.findWhole(tenant.id, key, at(-60))).toEqual(Option.none())
      expect(yield* repo.batch(tenant.id, old, 0)).toEqual(Option.none())
      expect(yield* repo.findWhole(other.id, key, at(-60))).toEqual(Option.some({ id: theirs, rowCount: 0 }))
    })
  )
}
