import { utrCheckDigit } from "@cisbook/core/cis/Utr"
import { SqlClient } from "@effect/sql"
import { assert, expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { verificationWorker } from "../src/workers/VerificationWorker.js"
import { registerCisScheme } from "./CisSchemeSetting.js"
import { contractorTenant } from "./ContractorTenant.js"
import { e2e, ownerOfNewTenant, SqlTestPorts } from "./E2E.js"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { eventually } from "./WorkerTestApp.js"
import { allDeclared } from "@cisbook/testkit/DeclarationsFixtures"

const utrEndingIn = (last: number) => `${utrCheckDigit(`23456789${last}`)}23456789${last}`

/** A partnership as HMRC verifies it: the firm (its name and UTR) and its nominated partner (name and own UTR). */
const partnership = (firmUtr: string) => ({
  name: "Stone & Stone",
  isSupplier: true,
  isCisSubcontractor: true,
  cisDetails: {
    type: "Partnership" as const,
    title: null,
    firstName: "Kim",
    secondName: null,
    lastName: "Stone",
    tradingName: "Stone & Stone",
    utr: firmUtr,
    niNumber: null,
    companyNumber: null,
    partnerUtr: "2234 567 890"
  }
})

/** A new tenant's owner with the tenant's CIS scheme registration and, unless told, its own CIS details. */
const contractor = (name: string, ownUtr = true) =>
  Effect.gen(function* () {
    const made = yield* ownerOfNewTenant(name)
    yield* registerCisScheme(made, made.tenant)
    if (ownUtr)
      yield* made.api.settings.updateCisDetails({
        path: { tenant: made.tenant },
        payload: { type: "Company", tradingName: "Lovelace Builders Ltd", utr: "8456789123" }
      })
    return made
  })

/** Starts the server's verification worker, polling fast; closing the scope stops it. */
const startWorker = Effect.gen(function* () {
  const scope = yield* Effect.acquireRelease(Scope.make(), (s) => Scope.close(s, Exit.void))
  yield* Layer.buildWithScope(
    verificationWorker({ pollInterval: Duration.millis(20), concurrency: 10, lease: Duration.seconds(60) }),
    scope
  )
})

/** The test database is the one the ports stand on, for the test that writes a name as stored before the rule. */
const app = e2e(SqlTestPorts).pipe(Layer.provideMerge(EphemeralDatabase))

/** CisDetails as a request carries them: the fields given, every other member null. */
const cis = (fields: Record<string, string> & { readonly type: "SoleTrader" | "Company" }) => ({
  title: null,
  firstName: null,
  secondName: null,
  lastName: null,
  tradingName: null,
  utr: null,
  niNumber: null,
  companyNumber: null,
  ...fields
})

layer(app, { excludeTestServices: true, timeout: "120 seconds" })("HMRC's forms over HTTP", (it) => {
  it.effect("a contact keeps a partnership's nominated partner's UTR, checked like a UTR", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* contractor("partnerutr")
      const made = yield* api.contacts.createContact({ path: { tenant }, payload: partnership(utrEndingIn(3)) })
      expect(made.cisDetails).toMatchObject({ type: "Partnership", utr: utrEndingIn(3), partnerUtr: "2234567890" })
      expect((yield* api.contacts.getContact({ path: { tenant, code: made.code } })).cisDetails?.partnerUtr).toBe(
        "2234567890"
      )
      const bad = partnership(utrEndingIn(3))
      const refused = yield* Effect.flip(
        api.contacts.createContact({
          path: { tenant },
          payload: { ...bad, cisDetails: { ...bad.cisDetails, partnerUtr: "2234567891" } }
        })
      )
      assert(refused._tag === "ValidationFailed")
      expect(Object.keys(refused.errors)).toEqual(["cisDetails.partnerUtr"])
    })
  )

  it.effect("refuses at entry a name HMRC's forms cannot take, naming the member with HMRC's rule", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* contractor("names")
      const long = "S".repeat(36)
      const refused = yield* Effect.flip(
        api.contacts.createContact({
          path: { tenant },
          payload: {
            name: "Too Long",
            isSupplier: true,
            isCisSubcontractor: true,
            cisDetails: cis({ type: "SoleTrader", firstName: "Jo", lastName: long, utr: "2234567890" })
          }
        })
      )
      assert(refused._tag === "ValidationFailed")
      expect(refused.errors).toEqual({
        "cisDetails.lastName": ["HMRC takes a surname of 1–35 letters (A–Z), digits, spaces and , . ( ) / & - '"]
      })
      // Names that take HMRC's forms are kept as entered.
      const maryAnn = yield* api.contacts.createContact({
        path: { tenant },
        payload: {
          name: "Mary Ann O’Brien",
          isSupplier: true,
          isCisSubcontractor: true,
          cisDetails: cis({
            type: "SoleTrader",
            title: "Professor",
            firstName: "Mary Ann",
            lastName: "O’Brien",
            tradingName: "Café Ltd",
            utr: "2234567890"
          })
        }
      })
      expect(maryAnn.cisDetails).toMatchObject({ title: "Professor", firstName: "Mary Ann", lastName: "O’Brien" })
      const update = yield* Effect.flip(
        api.contacts.updateContact({
          path: { tenant, code: maryAnn.code },
          payload: {
            name: "Mary Ann O’Brien",
            isCustomer: false,
            isSupplier: true,
            isCisSubcontractor: true,
            vatRegistered: false,
            cisDetails: { ...maryAnn.cisDetails!, tradingName: "Bricks | Mortar" },
            supplierSettings: { defaultVatRate: "NoVat" }
          }
        })
      )
      assert(update._tag === "ValidationFailed")
      expect(Object.keys(update.errors)).toEqual(["cisDetails.tradingName"])
      expect(update.errors["cisDetails.tradingName"]?.[0]).toContain('cannot take "|"')

      const tenantDetails = yield* Effect.flip(
        api.settings.updateCisDetails({ path: { tenant }, payload: { type: "Company", tradingName: "T".repeat(57) } })
      )
      assert(tenantDetails._tag === "ValidationFailed")
      expect(Object.keys(tenantDetails.errors)).toEqual(["tradingName"])
      expect(tenantDetails.errors.tradingName?.[0]).toMatch(/^HMRC takes a name of 1–56 characters/)
    })
  )

  it.effect("a verification is 400 naming utr while the contractor's own UTR is not set, and changes nothing", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* contractor("noownutr", false)
      const made = yield* api.contacts.createContact({ path: { tenant }, payload: partnership(utrEndingIn(3)) })
      const refused = yield* Effect.flip(api.contacts.verifyContact({ path: { tenant, code: made.code } }))
      assert(refused._tag === "ValidationFailed")
      expect(Object.keys(refused.errors)).toEqual(["utr"])
      expect((yield* api.contacts.getContact({ path: { tenant, code: made.code } })).verification?.source).toBeNull()
    })
  )

  it.scoped("a partnership is verified through its nominated partner, and the firm's UTR picks the treatment", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* contractor("partnership")
      const incomplete = partnership(utrEndingIn(7))
      const missing = yield* api.contacts.createContact({
        path: { tenant },
        payload: { ...incomplete, cisDetails: { ...incomplete.cisDetails, partnerUtr: null } }
      })
      const refused = yield* Effect.flip(api.contacts.verifyContact({ path: { tenant, code: missing.code } }))
      assert(refused._tag === "ValidationFailed")
      expect(refused.errors).toEqual({
        "cisDetails.partnerUtr": ["Required (or niNumber) for a Partnership to be verified"]
      })
      const made = yield* api.contacts.createContact({ path: { tenant }, payload: partnership(utrEndingIn(7)) })
      const asked = yield* api.contacts.verifyContact({ path: { tenant, code: made.code } })
      expect(asked.verification?.message).toBe("Verification requested")
      yield* startWorker
      const verified = yield* eventually(
        api.contacts.getContact({ path: { tenant, code: made.code } }),
        (c) => c.verification?.status !== "NotVerified"
      )
      expect(verified.verification).toMatchObject({ status: "Verified", taxTreatment: "Gross", source: "Hmrc" })
    })
  )

  it.effect("a return HMRC's schema would refuse is 400 naming the line's contact, and nothing is filed", () =>
    Effect.gen(function* () {
      const { api, tenant } = yield* contractorTenant("mrschema")
      // A trading name stored before HMRC's forms were enforced where names are entered.
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE contacts SET cis_trading_name = ${"R".repeat(57)} WHERE code = 'ACMEROOF'
        AND tenant_id = (SELECT id FROM tenants WHERE code = ${tenant})`
      const refused = yield* Effect.flip(
        api.monthlyReturns.createMonthlyReturn({
          path: { tenant },
          payload: {
            declarations: allDeclared,
            periodEnd: "2026-06-05",
            lines: [
              { contact: "johnsmit", grossAmount: 1000, materials: 400, deducted: 120 },
              { contact: "ACMEROOF", grossAmount: 500, materials: 0, deducted: 150 }
            ]
          }
        })
      )
      assert(refused._tag === "ValidationFailed")
      expect(Object.keys(refused.errors)).toEqual(["lines[1].contact"])
      expect(refused.errors["lines[1].contact"]?.[0]).toMatch(/^HMRC's schema refuses it: .*TradingName/)
      expect(yield* api.monthlyReturns.listMonthlyReturns({ path: { tenant } })).toEqual([])
    })
  )
})
