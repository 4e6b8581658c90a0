import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { RecordedEvents } from "@cisbook/testkit/RecordedEvents"
import { utrFor } from "@cisbook/testkit/ImportFixtures"
import { ManualClock } from "@cisbook/testkit/SystemFakes"
import { assert, describe, expect, it } from "@effect/vitest"
import { Chunk, Deferred, Effect, Exit, Fiber, Layer, Ref, Stream, TestClock } from "effect"
import { importColumns } from "../../src/contacts/ImportColumns.js"
import { CsvUnreadable, type ImportFile } from "../../src/contacts/ImportFile.js"
import { importTemplateCsv } from "../../src/contacts/ImportTemplate.js"
import { ValidationFailed } from "../../src/Errors.js"
import { ContactRepo } from "../../src/contacts/ContactRepo.js"
import { DuplicateKey } from "../../src/system/DuplicateKey.js"
import { StoreBusy } from "../../src/system/StoreBusy.js"
import { Transactor } from "../../src/system/Transactor.js"
import { EventOutbox } from "../../src/events/EventOutbox.js"
import { TenantCode } from "../../src/tenants/Tenant.js"
import { UseCasesLive } from "../../src/UseCases.js"
import { IMPORT_BATCH_ROWS } from "../../src/contacts/ImportLimits.js"
import { ContactImport } from "../../src/contacts/ContactImport.js"
import { Contacts } from "../../src/contacts/Contacts.js"
import { Tenants } from "../../src/tenants/Tenants.js"
import { asMember, asSupport, asUser, aUser, testApp, testAppWith } from "../TestApp.js"

const header = importColumns.join(",")

/** An import file of plain comma-separated lines (no quoting: the CSV reader is the adapters'). */
const fileOf = (...lines: ReadonlyArray<string>): ImportFile => ({
  name: "contacts.csv",
  records: Stream.fromIterable(lines.map((line) => line.split(",")))
})

/** An import file whose reader tells its digest, and how many times its records were read. */
const fileWithDigest = (digest: string, name: string, ...lines: ReadonlyArray<string>) => {
  const reads = { count: 0 }
  const file: ImportFile = {
    name,
    digest: Effect.succeed(digest),
    records: Stream.suspend(() => {
      reads.count++
      return Stream.fromIterable(lines.map((line) => line.split(",")))
    })
  }
  return { file, reads }
}

/** A template row: the named cells, the others blank. */
const line = (cells: Partial<Record<(typeof importColumns)[number], string>>) =>
  importColumns.map((column) => cells[column] ?? "").join(",")

const soleTrader = (name: string, utr: string, more: Partial<Record<(typeof importColumns)[number], string>> = {}) =>
  line({ Name: name, FirstName: name.split(" ")[0] ?? name, LastName: "Trader", UTR: utr, ...more })

/** A file of `rows` importable sole traders, all named alike. */
const manyRows = (rows: number, name = "Bulk Builder") =>
  fileOf(header, ...Array.from({ length: rows }, (_, i) => soleTrader(`${name} ${i + 1}`, utrFor(i))))

const setUp = Effect.gen(function* () {
  const tenants = yield* Tenants
  const owner = yield* aUser("owner@example.com")
  const { tenant } = yield* tenants
    .create({ code: TenantCode.make("acme"), name: "Acme", email: null })
    .pipe(asUser(owner))
  const imports = yield* ContactImport
  const contacts = yield* Contacts
  const events = Effect.flatMap(RecordedEvents, (recorded) => recorded.list(tenant.id))
  const stored = Effect.flatMap(ContactRepo, (repo) =>
    repo.list(tenant.id, {
      offset: 0,
      limit: 100_000,
      sortBy: "Code",
      sortDesc: false,
      terms: [],
      role: null,
      verificationStatus: null
    })
  ).pipe(Effect.map((page) => page.items))
  return { owner, tenant, imports, contacts, events, stored } as const
})

const analysed = (stream: Stream.Stream<any, any>) => Effect.map(Stream.runCollect(stream), Chunk.toArray)

/** The use cases over memory ports, with the contact store changed by `wrap`. */
const appWith = (wrap: (repo: ContactRepo["Type"]) => Effect.Effect<ContactRepo["Type"]>) =>
  UseCasesLive.pipe(
    Layer.provide(Layer.effect(ContactRepo, Effect.flatMap(ContactRepo, wrap))),
    Layer.provideMerge(MemoryPorts),
    Layer.provideMerge(identityVerifierFake({}))
  )

describe("ContactImport", () => {
  it.effect("offers the template to members only", () =>
    Effect.gen(function* () {
      const { imports, owner } = yield* setUp
      expect(yield* imports.template().pipe(asMember(owner, "acme"))).toBe(importTemplateCsv)
      const stranger = yield* aUser("stranger@example.com")
      expect(yield* Effect.flip(imports.template().pipe(asMember(stranger, "acme")))).toMatchObject({
        _tag: "NotAMember"
      })
      expect(yield* Effect.flip(imports.template().pipe(asMember(owner, "nope")))).toMatchObject({ _tag: "NotFound" })
    }).pipe(Effect.provide(testApp()))
  )

  describe("analyse", () => {
    it.effect("gives one entry per data row, flags the tenant's existing UTRs, and creates nothing", () =>
      Effect.gen(function* () {
        const { contacts, events, imports, owner, stored } = yield* setUp
        const existing = yield* contacts
          .create({
            name: "Already Here",
            isSupplier: true,
            isCisSubcontractor: true,
            cisDetails: {
              type: "SoleTrader",
              title: null,
              firstName: null,
              secondName: null,
              lastName: null,
              tradingName: null,
              utr: "2234567890",
              niNumber: null,
              companyNumber: null
            }
          })
          .pipe(asMember(owner, "acme"))
        // Another tenant's contact with a UTR of the file is nobody's duplicate here.
        const other = yield* aUser("other@example.com")
        yield* (yield* Tenants)
          .create({ code: TenantCode.make("other"), name: "Other", email: null })
          .pipe(asUser(other))
        yield* contacts
          .create({
            name: "Theirs",
            isSupplier: true,
            isCisSubcontractor: true,
            cisDetails: { ...existing.cisDetails!, utr: "1097172564" }
          })
          .pipe(asMember(other, "other"))
        const before = { contacts: (yield* stored).length, events: (yield* events).length }

        const rows = yield* analysed(
          yield* imports
            .analyse(
              fileOf(
                header,
                soleTrader("Twin Of Here", "2234 567 890"),
                soleTrader("New One", "1097172564"),
                line({ Name: "", UTR: "2234567890" })
              )
            )
            .pipe(asMember(owner, "acme"))
        )
        expect(rows.map((r) => [r.rowId, r.subcontractor?.name ?? null, r.duplicateOf, r.skipReason])).toEqual([
          [1, "Twin Of Here", existing.code, null],
          [2, "New One", null, null],
          [3, null, null, "The row has no name; the CIS details a SoleTrader needs are missing: FirstName; LastName."]
        ])
        expect({ contacts: (yield* stored).length, events: (yield* events).length }).toEqual(before)
      }).pipe(Effect.provide(testApp()))
    )

    it.effect("refuses a file that is empty, has no data rows, no template column, too many rows, or is not CSV", () =>
      Effect.gen(function* () {
        const { imports, owner } = yield* setUp
        const refusal = (file: ImportFile) =>
          Effect.flip(imports.analyse(file).pipe(asMember(owner, "acme"))).pipe(
            Effect.map((e) => {
              assert.instanceOf(e, ValidationFailed)
              expect(Object.keys(e.errors)).toEqual(["file"])
              return e.detail
            })
          )
        expect(yield* refusal(fileOf())).toBe("The file is empty: it needs a header row and at least one data row.")
        expect(yield* refusal(fileOf(header))).toBe("The file has a header row but no data rows.")
        expect(yield* refusal(fileOf("Phone,Address", "0123,High Street"))).toMatch(
          /^The first row of the file names none of the template's columns \(Name, TradingName, /
        )
        expect(yield* refusal(manyRows(10_001))).toBe(
          "The file has more than 10,000 data rows; split it into files of at most 10,000 rows each."
        )
        const broken: ImportFile = {
          name: "broken.csv",
          records: Stream.concat(
            Stream.make(["Name"], ["Fine"]),
            Stream.fail(new CsvUnreadable({ reason: "a quoted cell is never closed" }))
          )
        }
        expect(yield* refusal(broken)).toBe("The file cannot be read as CSV: a quoted cell is never closed.")
        // Exactly the limit is fine.
        expect((yield* analysed(yield* imports.analyse(manyRows(10_000)).pipe(asMember(owner, "acme")))).length).toBe(
          10_000
        )
      }).pipe(Effect.provide(testApp()))
    )

    it.effect("is for members of the tenant only", () =>
      Effect.gen(function* () {
        const { imports } = yield* setUp
        const stranger = yield* aUser("stranger@example.com")
        expect(yield* Effect.flip(imports.analyse(manyRows(1)).pipe(asMember(stranger, "acme")))).toMatchObject({
          _tag: "NotAMember"
        })
      }).pipe(Effect.provide(testApp()))
    )
  })

  describe("import", () => {
    it.effect(
      "makes each selected row a supplier and CIS subcontractor with an import note, recording its events",
      () =>
        Effect.gen(function* () {
          const { events, imports, owner, stored } = yield* setUp
          const file = fileOf(
            header,
            soleTrader("Acme Builders", "2234567890", {
              VerificationNumber: "V1234567890",
              VerificationDate: "01/04/2026",
              TaxStatus: "gross"
            }),
            soleTrader("Acme Builders", "1097172564", { VATRegistered: "yes" }),
            line({ Name: "Skipped Row", Type: "Corporation" }),
            soleTrader("Not Selected", "1123456789")
          )
          const result = yield* imports.importRows(file, [1, 2, 3, 9, 2]).pipe(asMember(owner, "acme"))
          expect(result).toEqual({
            imported: 2,
            failed: 2,
            rows: [
              { rowId: 1, status: "Imported", contactCode: "ACMEBUIL", reason: null },
              { rowId: 2, status: "Imported", contactCode: "ACMEBUI2", reason: null },
              {
                rowId: 3,
                status: "Failed",
                contactCode: null,
                reason: 'Type "Corporation" is not SoleTrader, Partnership, Company or Trust.'
              },
              { rowId: 9, status: "Failed", contactCode: null, reason: "There is no data row 9: the file has 4." }
            ]
          })
          const byCode = new Map((yield* stored).map((c) => [c.code, c]))
          const verified = byCode.get("ACMEBUIL")
          const unverified = byCode.get("ACMEBUI2")
          expect(verified).toMatchObject({
            code: "ACMEBUIL",
            isSupplier: true,
            isCisSubcontractor: true,
            isCustomer: false,
            supplierSettings: { defaultVatRate: "NoVat" },
            cisDetails: { type: "SoleTrader", firstName: "Acme", lastName: "Trader", utr: "2234567890" },
            verification: {
              status: "Verified",
              verificationNumber: "V1234567890",
              taxTreatment: "Gross",
              verifiedAt: new Date("2026-04-01T00:00:00.000Z"),
              source: "Manual",
              message: "Imported from contacts.csv, row 1"
            }
          })
          expect(unverified).toMatchObject({
            code: "ACMEBUI2",
            vatRegistered: true,
            supplierSettings: { defaultVatRate: "Standard" },
            verification: { status: "NotVerified", source: null, message: "Imported from contacts.csv, row 2" }
          })
          expect(yield* stored).toHaveLength(2)
          const recorded = yield* events
          expect(recorded.map((e) => [e.type, (e.data as { code: string }).code])).toEqual([
            ["contact.created", "ACMEBUIL"],
            ["subcontractor.created", "ACMEBUIL"],
            ["contact.created", "ACMEBUI2"],
            ["subcontractor.created", "ACMEBUI2"]
          ])
          expect(recorded[1]?.data).toMatchObject({ verification: { status: "Verified", source: "Manual" } })
        }).pipe(Effect.provide(testApp()))
    )

    it.effect("issues codes after those ever issued, deleted contacts' included", () =>
      Effect.gen(function* () {
        const { contacts, imports, owner } = yield* setUp
        yield* contacts.create({ name: "Acme Builders" }).pipe(asMember(owner, "acme"))
        const second = yield* contacts.create({ name: "Acme Builders" }).pipe(asMember(owner, "acme"))
        yield* contacts.remove(second.code).pipe(asMember(owner, "acme"))
        const result = yield* imports
          .importRows(
            fileOf(header, soleTrader("Acme Builders", "2234567890"), soleTrader("ACME builders!", "1097172564")),
            [1, 2]
          )
          .pipe(asMember(owner, "acme"))
        expect(result.rows.map((r) => r.contactCode)).toEqual(["ACMEBUI3", "ACMEBUI4"])
      }).pipe(Effect.provide(testApp()))
    )

    it.effect("refuses an empty selection and a bad file before importing anything", () =>
      Effect.gen(function* () {
        const { imports, owner, stored } = yield* setUp
        const noSelection = yield* Effect.flip(imports.importRows(manyRows(2), []).pipe(asMember(owner, "acme")))
        expect(noSelection).toMatchObject({ _tag: "ValidationFailed", errors: { selections: expect.any(Array) } })
        const noRows = yield* Effect.flip(imports.importRows(fileOf(header), [1]).pipe(asMember(owner, "acme")))
        expect(noRows).toMatchObject({ _tag: "ValidationFailed", errors: { file: expect.any(Array) } })
        // A file that breaks after its good rows imports none of them.
        const breaking: ImportFile = {
          name: "breaking.csv",
          records: Stream.concat(
            manyRows(3).records,
            Stream.fail(new CsvUnreadable({ reason: "it is not UTF-8 text" }))
          )
        }
        expect(yield* Effect.flip(imports.importRows(breaking, [1, 2, 3]).pipe(asMember(owner, "acme")))).toMatchObject(
          {
            _tag: "ValidationFailed"
          }
        )
        expect(yield* stored).toEqual([])
      }).pipe(Effect.provide(testApp()))
    )

    it.effect("imports 10,000 rows in batches, telling its progress after each", () =>
      Effect.gen(function* () {
        const { events, imports, stored } = yield* setUp
        const progress = yield* Ref.make<ReadonlyArray<readonly [number, number]>>([])
        const result = yield* imports
          .importRows(
            manyRows(10_000),
            Array.from({ length: 10_000 }, (_, i) => i + 1),
            (done, total) => Ref.update(progress, (all) => [...all, [done, total] as const])
          )
          .pipe(asSupport("acme"))
        expect(result.imported).toBe(10_000)
        expect(result.failed).toBe(0)
        const codes = result.rows.map((r) => r.contactCode)
        expect(new Set(codes).size).toBe(10_000)
        expect(codes.slice(0, 3)).toEqual(["BULKBUIL", "BULKBUI2", "BULKBUI3"])
        expect(yield* Ref.get(progress)).toEqual(
          Array.from({ length: 10_000 / IMPORT_BATCH_ROWS }, (_, i) => [(i + 1) * IMPORT_BATCH_ROWS, 10_000])
        )
        expect((yield* stored).length).toBe(10_000)
        expect((yield* events).length).toBe(20_000)
      }).pipe(Effect.provide(testApp()))
    )

    it.effect("support staff import into any tenant by its code", () =>
      Effect.gen(function* () {
        const { imports } = yield* setUp
        expect((yield* imports.importRows(manyRows(1), [1]).pipe(asSupport("acme"))).imported).toBe(1)
        expect(yield* Effect.flip(imports.importRows(manyRows(1), [1]).pipe(asSupport("missing")))).toMatchObject({
          _tag: "NotFound"
        })
        const rows = yield* analysed(yield* imports.analyse(manyRows(2)).pipe(asSupport("acme")))
        expect(rows.map((r) => r.rowId)).toEqual([1, 2])
      }).pipe(Effect.provide(testApp()))
    )

    it.effect("the next batch's codes are issued while this one is being written", () =>
      Effect.gen(function* () {
        const { imports, stored } = yield* setUp
        const rows = IMPORT_BATCH_ROWS + 1
        const result = yield* imports
          .importRows(
            manyRows(rows),
            Array.from({ length: rows }, (_, i) => i + 1)
          )
          .pipe(asSupport("acme"))
        expect(result.imported).toBe(rows)
        expect(yield* stored).toHaveLength(rows)
      }).pipe(
        Effect.provide(
          appWith((repo) =>
            Effect.gen(function* () {
              const secondIssued = yield* Deferred.make<void>()
              const issues = yield* Ref.make(0)
              const writes = yield* Ref.make(0)
              return {
                ...repo,
                issueCodes: (tenantId, codes) =>
                  Effect.zipLeft(
                    repo.issueCodes(tenantId, codes),
                    Effect.flatMap(
                      Ref.getAndUpdate(issues, (n) => n + 1),
                      (n) => (n === 1 ? Deferred.succeed(secondIssued, undefined) : Effect.void)
                    )
                  ),
                // The first batch's write waits for the second batch's codes: were they issued
                // only after it, the import would never end.
                insertIssued: (contacts) =>
                  Effect.flatMap(
                    Ref.getAndUpdate(writes, (n) => n + 1),
                    (n) =>
                      Effect.zipRight(n === 0 ? Deferred.await(secondIssued) : Effect.void, repo.insertIssued(contacts))
                  )
              }
            })
          )
        )
      )
    )
  })

  describe("when writing fails", () => {
    /** Three rows, the store refusing the second ("Poison Row") in the test's own way. */
    const poisonInTheMiddle = fileOf(
      header,
      soleTrader("Good One", "2234567890"),
      soleTrader("Poison Row", "1097172564"),
      soleTrader("Good Two", "1123456789")
    )

    it.effect("a row that cannot be written fails alone; the rest of its batch is imported", () =>
      Effect.gen(function* () {
        const { events, imports, owner, stored } = yield* setUp
        const result = yield* imports.importRows(poisonInTheMiddle, [1, 2, 3]).pipe(asMember(owner, "acme"))
        expect(result.rows.map((r) => [r.rowId, r.status, r.reason])).toEqual([
          [1, "Imported", null],
          [2, "Failed", "It could not be saved because of an error on our side; import the row again."],
          [3, "Imported", null]
        ])
        expect((yield* stored).map((c) => c.name)).toEqual(["Good One", "Good Two"])
        expect((yield* events).length).toBe(4)
      }).pipe(
        Effect.provide(
          appWith((repo) =>
            Effect.succeed({
              ...repo,
              insertIssued: (contacts) =>
                contacts.some((c) => c.name.startsWith("Poison"))
                  ? Effect.die(new Error("the store refuses this row"))
                  : repo.insertIssued(contacts)
            })
          )
        )
      )
    )

    it.effect("a row whose code cannot be issued fails alone; the rest of its batch is imported", () =>
      Effect.gen(function* () {
        const { events, imports, owner, stored } = yield* setUp
        const result = yield* imports.importRows(poisonInTheMiddle, [1, 2, 3]).pipe(asMember(owner, "acme"))
        expect(result.rows.map((r) => [r.rowId, r.status, r.contactCode])).toEqual([
          [1, "Imported", "GOODONE"],
          [2, "Failed", null],
          [3, "Imported", "GOODTWO"]
        ])
        expect((yield* stored).map((c) => c.code)).toEqual(["GOODONE", "GOODTWO"])
        expect((yield* events).length).toBe(4)
      }).pipe(
        Effect.provide(
          appWith((repo) =>
            Effect.succeed({
              ...repo,
              issueCodes: (tenantId, codes) =>
                codes.some((code) => code.startsWith("POISON"))
                  ? Effect.die(new Error("the store refuses this code"))
                  : repo.issueCodes(tenantId, codes)
            })
          )
        )
      )
    )

    it.effect("a code taken by a racing writer is issued again", () =>
      Effect.gen(function* () {
        const { imports, owner } = yield* setUp
        const result = yield* imports.importRows(manyRows(3), [1, 2, 3]).pipe(asMember(owner, "acme"))
        expect(result.imported).toBe(3)
        expect(result.rows.map((r) => r.contactCode)).toEqual(["BULKBUIL", "BULKBUI2", "BULKBUI3"])
      }).pipe(
        Effect.provide(
          appWith((repo) =>
            Effect.map(Ref.make(0), (calls) => ({
              ...repo,
              issueCodes: (tenantId, codes) =>
                Ref.getAndUpdate(calls, (n) => n + 1).pipe(
                  Effect.flatMap((n) =>
                    n === 0 ? Effect.fail(new DuplicateKey({ key: "code" })) : repo.issueCodes(tenantId, codes)
                  )
                )
            }))
          )
        )
      )
    )

    it.effect("a crash part-way leaves each row imported whole (contact, code and events) or not at all", () =>
      Effect.gen(function* () {
        const { events, imports, stored } = yield* setUp
        // The second batch's events never get written: the process stops there.
        const fiber = yield* Effect.fork(
          imports
            .importRows(
              manyRows(IMPORT_BATCH_ROWS + 300),
              Array.from({ length: IMPORT_BATCH_ROWS + 300 }, (_, i) => i + 1)
            )
            .pipe(asSupport("acme"))
        )
        const exit = yield* Fiber.await(fiber)
        assert.isTrue(Exit.isInterrupted(exit))
        const contacts = yield* stored
        expect(contacts).toHaveLength(IMPORT_BATCH_ROWS)
        const recorded = yield* events
        expect(recorded).toHaveLength(2 * IMPORT_BATCH_ROWS)
        expect(new Set(recorded.map((e) => (e.data as { code: string }).code))).toEqual(
          new Set(contacts.map((c) => c.code))
        )
      }).pipe(
        Effect.provide(
          UseCasesLive.pipe(
            Layer.provide(
              Layer.mergeAll(
                Layer.effect(
                  EventOutbox,
                  Effect.gen(function* () {
                    const outbox = yield* EventOutbox
                    const calls = yield* Ref.make(0)
                    return {
                      record: (tenantId, newEvents) =>
                        Ref.getAndUpdate(calls, (n) => n + 1).pipe(
                          Effect.flatMap((n) =>
                            // Call 0 is the tenant's first batch; call 1 the second: interrupt it mid-write.
                            n === 1 ? Effect.interrupt : outbox.record(tenantId, newEvents)
                          )
                        )
                    }
                  })
                ),
                // Two batches are written at once, each in its own transaction. The memory store
                // cannot isolate concurrent transactions (one that fails puts back what the other
                // wrote since it began), so here they take turns, as a database isolates them.
                Layer.effect(
                  Transactor,
                  Effect.gen(function* () {
                    const { transaction } = yield* Transactor
                    const turn = yield* Effect.makeSemaphore(1)
                    return { transaction: (effect) => turn.withPermits(1)(transaction(effect)) }
                  })
                )
              )
            ),
            Layer.provideMerge(MemoryPorts),
            Layer.provideMerge(identityVerifierFake({}))
          )
        )
      )
    )

    /** The memory transactor, whose first `busyFor` transactions die as the SQL one's do when the database is too busy; `attempts` counts them all. */
    const busyStore = (busyFor: number, attempts: Ref.Ref<number>) =>
      testAppWith(Transactor, (transactor) =>
        Effect.succeed({
          transaction: (effect) =>
            Ref.getAndUpdate(attempts, (n) => n + 1).pipe(
              Effect.flatMap((n) =>
                n < busyFor
                  ? Effect.die(
                      new StoreBusy({ reason: "a lock time-out", cause: "canceling statement due to lock timeout" })
                    )
                  : transactor.transaction(effect)
              )
            )
        })
      )

    it.effect("a store too busy for a moment is asked again after a wait, and every row is imported", () => {
      const attempts = Ref.unsafeMake(0)
      return Effect.gen(function* () {
        const { imports, owner, stored } = yield* setUp
        yield* Ref.set(attempts, 0)
        const importing = yield* Effect.fork(imports.importRows(manyRows(3), [1, 2, 3]).pipe(asMember(owner, "acme")))
        // The first wait is 100 ms, the second 200 ms: nothing is tried again before its time.
        yield* TestClock.adjust("100 millis")
        expect(yield* Ref.get(attempts)).toBe(2)
        yield* TestClock.adjust("200 millis")
        const result = yield* Fiber.join(importing)
        // The codes issued at the third try, then the rows written in a transaction of their own.
        expect(yield* Ref.get(attempts)).toBe(4)
        expect(result).toMatchObject({ imported: 3, failed: 0 })
        expect((yield* stored).map((c) => c.code)).toEqual(["BULKBUI2", "BULKBUI3", "BULKBUIL"])
      }).pipe(Effect.provide(busyStore(2, attempts)))
    })

    it.effect(
      "a store busy for longer than the waits fails the rows with a reason to act on, and saves nothing",
      () => {
        const attempts = Ref.unsafeMake(0)
        return Effect.gen(function* () {
          const { events, imports, owner, stored } = yield* setUp
          yield* Ref.set(attempts, 0)
          const importing = yield* Effect.fork(imports.importRows(manyRows(3), [1, 2, 3]).pipe(asMember(owner, "acme")))
          yield* TestClock.adjust("1 minute")
          const result = yield* Fiber.join(importing)
          expect(result.rows.map((r) => [r.rowId, r.status, r.reason])).toEqual(
            [1, 2, 3].map((rowId) => [
              rowId,
              "Failed",
              "The database was too busy to save it, even after waiting a few seconds; import the row again in a minute."
            ])
          )
          // The codes tried once and again five times as a batch: not row by row, which would only
          // wait longer; with no code issued, nothing is written.
          expect(yield* Ref.get(attempts)).toBe(6)
          expect(yield* stored).toEqual([])
          expect(yield* events).toEqual([])
        }).pipe(Effect.provide(busyStore(Number.POSITIVE_INFINITY, attempts)))
      }
    )

    it.effect("a store that fails every write fails every row, leaving nothing half-written", () =>
      Effect.gen(function* () {
        const { events, imports, stored } = yield* setUp
        const result = yield* imports.importRows(manyRows(4), [1, 2, 3, 4]).pipe(asSupport("acme"))
        expect(result).toMatchObject({ imported: 0, failed: 4 })
        expect(yield* stored).toEqual([])
        expect(yield* events).toEqual([])
      }).pipe(
        Effect.provide(
          UseCasesLive.pipe(
            Layer.provide(Layer.succeed(EventOutbox, { record: () => Effect.die(new Error("the outbox is gone")) })),
            Layer.provideMerge(MemoryPorts),
            Layer.provideMerge(identityVerifierFake({}))
          )
        )
      )
    )
  })

  describe("the analysis kept for the import", () => {
    const rows = [
      header,
      soleTrader("Acme Builders", "2234567890", {
        VerificationNumber: "V1234567890",
        VerificationDate: "01/04/2026",
        TaxStatus: "gross"
      }),
      soleTrader("Acme Builders", "1097172564", { VATRegistered: "yes" }),
      line({ Name: "Skipped Row", Type: "Corporation" }),
      soleTrader("Not Selected", "1123456789")
    ]

    it.effect(
      "is reused by the import of the same file: the file is not read again, every row imported as analysed",
      () =>
        Effect.gen(function* () {
          const { events, imports, owner, stored } = yield* setUp
          const { file, reads } = fileWithDigest("same-bytes", "contacts.csv", ...rows)
          const analysis = yield* analysed(yield* imports.analyse(file).pipe(asMember(owner, "acme")))
          expect(analysis).toHaveLength(4)
          expect(reads.count).toBe(2)

          // The same bytes under another name: the analysis is the file's, the import note the upload's.
          const again = fileWithDigest("same-bytes", "renamed.csv", ...rows)
          const result = yield* imports.importRows(again.file, [1, 2, 3, 9]).pipe(asMember(owner, "acme"))
          expect(again.reads.count).toBe(0)
          expect(result).toEqual({
            imported: 2,
            failed: 2,
            rows: [
              { rowId: 1, status: "Imported", contactCode: "ACMEBUIL", reason: null },
              { rowId: 2, status: "Imported", contactCode: "ACMEBUI2", reason: null },
              {
                rowId: 3,
                status: "Failed",
                contactCode: null,
                reason: 'Type "Corporation" is not SoleTrader, Partnership, Company or Trust.'
              },
              { rowId: 9, status: "Failed", contactCode: null, reason: "There is no data row 9: the file has 4." }
            ]
          })
          const byCode = new Map((yield* stored).map((c) => [c.code, c]))
          expect(byCode.get("ACMEBUIL")).toMatchObject({
            cisDetails: { type: "SoleTrader", firstName: "Acme", lastName: "Trader", utr: "2234567890" },
            supplierSettings: { defaultVatRate: "NoVat" },
            verification: {
              status: "Verified",
              verificationNumber: "V1234567890",
              taxTreatment: "Gross",
              verifiedAt: new Date("2026-04-01T00:00:00.000Z"),
              source: "Manual",
              message: "Imported from renamed.csv, row 1"
            }
          })
          expect(byCode.get("ACMEBUI2")).toMatchObject({
            vatRegistered: true,
            supplierSettings: { defaultVatRate: "Standard" }
          })
          expect((yield* events).map((e) => e.type)).toEqual([
            "contact.created",
            "subcontractor.created",
            "contact.created",
            "subcontractor.created"
          ])

          // Codes taken since the analysis are not issued twice: they are issued when the rows are saved.
          const third = yield* imports.importRows(again.file, [1]).pipe(asMember(owner, "acme"))
          expect(third.rows).toEqual([{ rowId: 1, status: "Imported", contactCode: "ACMEBUI3", reason: null }])
          expect(again.reads.count).toBe(0)
        }).pipe(Effect.provide(testApp()))
    )

    it.effect("is not reused for a changed file, nor for another tenant's import of the same file", () =>
      Effect.gen(function* () {
        const { imports, owner, stored } = yield* setUp
        yield* analysed(
          yield* imports.analyse(fileWithDigest("first", "a.csv", ...rows).file).pipe(asMember(owner, "acme"))
        )

        // Changed: the second row's name is another, and so is the file's digest.
        const changedRows = [...rows]
        changedRows[2] = soleTrader("Changed Name", "1097172564")
        const changed = fileWithDigest("second", "a.csv", ...changedRows)
        const result = yield* imports.importRows(changed.file, [2]).pipe(asMember(owner, "acme"))
        expect(changed.reads.count).toBe(2)
        expect(result.rows).toEqual([{ rowId: 2, status: "Imported", contactCode: "CHANGEDN", reason: null }])

        // Another tenant with the very same file analyses it for itself.
        const other = yield* aUser("other@example.com")
        yield* (yield* Tenants)
          .create({ code: TenantCode.make("other"), name: "Other", email: null })
          .pipe(asUser(other))
        const theirs = fileWithDigest("first", "a.csv", ...rows)
        const imported = yield* imports.importRows(theirs.file, [1]).pipe(asMember(other, "other"))
        expect(theirs.reads.count).toBe(2)
        expect(imported.imported).toBe(1)
        expect((yield* stored).map((c) => c.name)).toEqual(["Changed Name"])
      }).pipe(Effect.provide(testApp()))
    )

    it.effect("is not reused when it was cut short, nor on another day (a verification date's limit moves)", () =>
      Effect.gen(function* () {
        const { imports, owner } = yield* setUp
        // Three batches of rows, the answer abandoned after its first row.
        const many = [
          header,
          ...Array.from({ length: 3 * IMPORT_BATCH_ROWS }, (_, i) => soleTrader(`Bulk Builder ${i + 1}`, utrFor(i)))
        ]
        const cut = fileWithDigest("cut", "a.csv", ...many)
        yield* Stream.runDrain(Stream.take(yield* imports.analyse(cut.file).pipe(asMember(owner, "acme")), 1))
        const afterCut = fileWithDigest("cut", "a.csv", ...many)
        yield* imports.importRows(afterCut.file, [1]).pipe(asMember(owner, "acme"))
        expect(afterCut.reads.count).toBe(2)

        const whole = fileWithDigest("whole", "a.csv", ...rows)
        yield* analysed(yield* imports.analyse(whole.file).pipe(asMember(owner, "acme")))
        yield* (yield* ManualClock).advance(24 * 60 * 60 * 1000)
        const nextDay = fileWithDigest("whole", "a.csv", ...rows)
        yield* imports.importRows(nextDay.file, [2]).pipe(asMember(owner, "acme"))
        expect(nextDay.reads.count).toBe(2)
      }).pipe(Effect.provide(testApp()))
    )
  })
})
