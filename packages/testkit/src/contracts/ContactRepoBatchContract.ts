import { ContactRepo } from "@cisbook/core/contacts/ContactRepo"
import { expect } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { everyMember, identity, inserted, newContact, subcontractorFields } from "./ContactRepoContract.js"
import { type ContractIt, storedTenant } from "./Fixtures.js"

/** What an import needs of the contact store: codes, inserts and duplicate look-ups in batches. */
export const contactRepoBatchContract = (it: ContractIt) => {
  it.effect("tells which candidate codes of any of several bases were ever issued in the tenant", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const codes = [
        "ACMEBUIL",
        "ACMEBUI2",
        "ACMEBU10",
        "ACMEBUIX",
        "ACMEBU1",
        "ACME",
        "ACM12345",
        "ACME1X",
        "A1234567"
      ]
      for (const code of [...codes, "BCMEBUI3", "SMITHJ", "SMITHJ9", "SMITH12"]) yield* inserted(tenant, { code })
      const gone = yield* inserted(tenant, { code: "ACMEBUI3" })
      yield* repo.remove(tenant.id, gone.id)
      const other = yield* storedTenant
      yield* inserted(other, { code: "ACMEBUI4" })
      yield* inserted(other, { code: "SMITHJ2" })
      const among = (...bases: ReadonlyArray<string>) =>
        Effect.map(repo.issuedCodesAmong(tenant.id, bases), (found) => [...found].sort())
      expect(yield* among("ACMEBUIL")).toEqual(["A1234567", "ACM12345", "ACMEBU10", "ACMEBUI2", "ACMEBUI3", "ACMEBUIL"])
      expect(yield* among("ACME")).toEqual(["A1234567", "ACM12345", "ACME"])
      expect(yield* among("SMITHJ")).toEqual(["SMITHJ", "SMITHJ9"])
      expect(yield* among("ACMEBUIL", "ACME", "SMITHJ", "ZED")).toEqual([
        "A1234567",
        "ACM12345",
        "ACME",
        "ACMEBU10",
        "ACMEBUI2",
        "ACMEBUI3",
        "ACMEBUIL",
        "SMITHJ",
        "SMITHJ9"
      ])
      // The same answer as asking base by base.
      for (const base of ["ACMEBUIL", "ACME", "SMITHJ", "SMITH", "ZED"]) {
        expect(yield* among(base)).toEqual([...(yield* repo.issuedCodes(tenant.id, base))].sort())
      }
      expect(yield* among()).toEqual([])
    })
  )

  it.effect("issues a batch of codes whole, or none of them when one was ever issued in the tenant or repeats", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      yield* inserted(other, { code: "BATCH1" })
      yield* repo.issueCodes(tenant.id, ["BATCH3", "BATCH1", "BATCH2"])
      expect([...(yield* repo.issuedCodes(tenant.id, "BATCH"))].sort()).toEqual(["BATCH1", "BATCH2", "BATCH3"])
      // Issued, but no contact holds them yet.
      expect(yield* repo.findByCodes(tenant.id, ["BATCH1", "BATCH2", "BATCH3"])).toEqual([])

      expect(yield* Effect.flip(repo.issueCodes(tenant.id, ["BATCH4", "BATCH2"]))).toMatchObject({
        _tag: "DuplicateKey",
        key: "code"
      })
      expect(yield* Effect.flip(repo.issueCodes(tenant.id, ["TWICE", "TWICE"]))).toMatchObject({
        _tag: "DuplicateKey",
        key: "code"
      })
      const held = yield* inserted(tenant, { code: "HELD" })
      const gone = yield* inserted(tenant, { code: "GONE" })
      yield* repo.remove(tenant.id, gone.id)
      for (const code of [held.code, gone.code]) {
        expect(yield* Effect.flip(repo.issueCodes(tenant.id, [code]))).toMatchObject({
          _tag: "DuplicateKey",
          key: "code"
        })
      }

      yield* repo.issueCodes(tenant.id, [])
      // After a refused batch the codes it held are still free.
      yield* repo.issueCodes(tenant.id, ["BATCH4", "TWICE"])
      expect([...(yield* repo.issuedCodes(tenant.id, "BATCH"))].sort()).toEqual([
        "BATCH1",
        "BATCH2",
        "BATCH3",
        "BATCH4"
      ])
    })
  )

  it.effect("inserts a batch of contacts under the codes issued for them, or none of them", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const batch = yield* Effect.all(
        ["BATCH1", "BATCH2", "BATCH3"].map((code) =>
          newContact(tenant, { code, name: `Batch ${code}`, ...subcontractorFields(identity({ utr: "2234567890" })) })
        )
      )
      yield* repo.issueCodes(
        tenant.id,
        batch.map((c) => c.code)
      )
      yield* repo.insertIssued(batch)
      for (const contact of batch) expect(yield* repo.findByCode(tenant.id, contact.code)).toEqual(Option.some(contact))
      yield* repo.insertIssued([])

      // A code never issued, or one a contact holds, is a defect, and the batch is not written.
      yield* repo.issueCodes(tenant.id, ["FRESH"])
      const fresh = yield* newContact(tenant, { code: "FRESH" })
      for (const wrong of [
        yield* newContact(tenant, { code: "NEVER" }),
        yield* newContact(tenant, { code: "BATCH2" })
      ]) {
        expect(Exit.isFailure(yield* Effect.exit(repo.insertIssued([fresh, wrong])))).toBe(true)
        expect(yield* repo.findByCodes(tenant.id, ["FRESH", "NEVER"])).toEqual([])
      }
      yield* repo.insertIssued([fresh])
      expect(yield* repo.findByCode(tenant.id, "FRESH")).toEqual(Option.some(fresh))
    })
  )

  it.effect("keeps every member of the contacts of a batch, as an insert of one does", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const batch = yield* Effect.all([
        newContact(tenant, { code: "FULLB", ...everyMember }),
        newContact(tenant, { code: "BAREB" }),
        newContact(tenant, { code: "FULLC", ...everyMember, name: "Full 'Quoted' \"Contact\", {Ltd}", email: null }),
        // What a bulk load's text format must escape, kept as it was written.
        newContact(tenant, {
          code: "ESCAPED",
          name: "Tab\there, back\\slash \\N and \\t",
          externalId: "line one\nline two\r\n\\N"
        }),
        newContact(tenant, { code: "NULLTEXT", name: "\\N", externalId: "NULL" }),
        newContact(tenant, { code: "UNICODE", name: "Łódź Bau GmbH — Zoë’s 🏗", externalId: "" })
      ])
      yield* repo.issueCodes(
        tenant.id,
        batch.map((c) => c.code)
      )
      yield* repo.insertIssued(batch)
      for (const contact of batch) expect(yield* repo.findByCode(tenant.id, contact.code)).toEqual(Option.some(contact))
    })
  )

  it.effect("finds the tenant's contacts that have a UTR on record, the first by code for each", () =>
    Effect.gen(function* () {
      const repo = yield* ContactRepo
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      yield* inserted(tenant, { code: "SUB2", ...subcontractorFields(identity({ utr: "2234567890" })) })
      yield* inserted(tenant, { code: "SUB1", ...subcontractorFields(identity({ utr: "2234567890" })) })
      // No longer a subcontractor, but its identity is on record.
      yield* inserted(tenant, { code: "FORMER", cisDetails: identity({ utr: "1097172564" }) })
      yield* inserted(tenant, { code: "NOUTR", ...subcontractorFields(identity({ niNumber: "AB123456C" })) })
      yield* inserted(other, { code: "THEIRS", ...subcontractorFields(identity({ utr: "1123456789" })) })
      const codes = yield* repo.codesByUtr(tenant.id, ["2234567890", "1097172564", "1123456789", "1111111111"])
      expect(Object.fromEntries(codes)).toEqual({ "2234567890": "SUB1", "1097172564": "FORMER" })
      expect(yield* repo.codesByUtr(tenant.id, [])).toEqual(new Map())
      expect(Object.fromEntries(yield* repo.codesByUtr(other.id, ["2234567890", "1123456789"]))).toEqual({
        "1123456789": "THEIRS"
      })
    })
  )
}
