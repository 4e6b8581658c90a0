import { utrCheckDigit } from "@cisbook/core/cis/Utr"
import { assert, expect, layer } from "@effect/vitest"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { verificationWorker } from "../src/workers/VerificationWorker.js"
import { e2e, ownerOfNewTenant, raw, SqlTestPorts } from "./E2E.js"
import { eventually } from "./WorkerTestApp.js"
import { registerCisScheme } from "./CisSchemeSetting.js"

const utrEndingIn = (last: number) => `${utrCheckDigit(`23456789${last}`)}23456789${last}`

const subcontractor = (lastName: string, utr: string) => ({
  name: `Ann ${lastName}`,
  isSupplier: true,
  isCisSubcontractor: true,
  cisDetails: {
    type: "SoleTrader" as const,
    title: null,
    firstName: "Ann",
    secondName: null,
    lastName,
    tradingName: null,
    utr,
    niNumber: null,
    companyNumber: null
  }
})

/** A new tenant's owner, the tenant with its own CIS details (the contractor's UTR goes on every CISrequest). */
const owner = (name: string) =>
  Effect.gen(function* () {
    const made = yield* ownerOfNewTenant(name)
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

layer(e2e(SqlTestPorts), { excludeTestServices: true, timeout: "60 seconds" })("verification over HTTP", (it) => {
  it.scoped("answers 202 requested, and the server's worker records the sandbox's answer on the contact", () =>
    Effect.gen(function* () {
      const contractor = yield* owner("verify")
      const { api, key, tenant } = contractor
      yield* registerCisScheme(contractor, tenant)
      const gross = yield* api.contacts.createContact({
        path: { tenant },
        payload: subcontractor("Ash", utrEndingIn(8))
      })
      const refused = yield* api.contacts.createContact({
        path: { tenant },
        payload: subcontractor("Error", utrEndingIn(1))
      })
      const res = yield* raw(key, "POST", `/tenants/${tenant}/contacts/${gross.code.toLowerCase()}/verification`)
      expect(res.status).toBe(202)
      expect(res.body).toMatchObject({
        code: gross.code,
        verification: {
          status: "NotVerified",
          verificationNumber: null,
          taxTreatment: null,
          verifiedAt: null,
          source: "Hmrc",
          message: "Verification requested"
        }
      })
      const asked = yield* api.contacts.verifyContact({ path: { tenant, code: refused.code } })
      expect(asked.verification?.message).toBe("Verification requested")

      yield* startWorker
      const verified = yield* eventually(
        api.contacts.getContact({ path: { tenant, code: gross.code } }),
        (c) => c.verification?.status === "Verified"
      )
      expect(verified.verification).toMatchObject({
        status: "Verified",
        taxTreatment: "Gross",
        source: "Hmrc",
        message: null,
        verificationNumber: expect.stringMatching(/^V\d{10}$/)
      })
      assert(verified.verification?.verifiedAt instanceof Date)
      const error = yield* eventually(
        api.contacts.getContact({ path: { tenant, code: refused.code } }),
        (c) => c.verification?.status === "Error"
      )
      expect(error.verification).toMatchObject({
        source: "Hmrc",
        // Every error's text: ChRIS's summary and the department's reason.
        message: expect.stringContaining("The details given do not match HMRC's records for this subcontractor.")
      })
    })
  )

  it.effect("is 400 for a contact that is not a subcontractor or lacks identity members, naming them", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* owner("verify400")
      const customer = yield* api.contacts.createContact({
        path: { tenant },
        payload: { name: "Bo", isCustomer: true }
      })
      const notSub = yield* raw(key, "POST", `/tenants/${tenant}/contacts/${customer.code}/verification`)
      expect(notSub.status).toBe(400)
      expect(notSub.contentType).toMatch(/^application\/problem\+json/)
      expect(notSub.body?.detail).toBe(
        `${customer.code} is not a CIS subcontractor: only a CIS subcontractor can be verified.`
      )
      const bare = yield* api.contacts.createContact({
        path: { tenant },
        payload: { name: "Bare", isSupplier: true, isCisSubcontractor: true }
      })
      const incomplete = yield* raw(key, "POST", `/tenants/${tenant}/contacts/${bare.code}/verification`)
      expect(incomplete.status).toBe(400)
      expect(Object.keys(incomplete.body?.errors ?? {}).sort()).toEqual([
        "cisDetails.firstName",
        "cisDetails.lastName",
        "cisDetails.utr"
      ])
      const after = yield* api.contacts.getContact({ path: { tenant, code: bare.code } })
      expect(after.verification?.source).toBeNull()
    })
  )

  it.effect("is 400 naming the scheme's references until the tenant's CIS scheme registration is set", () =>
    Effect.gen(function* () {
      const contractor = yield* owner("verifyscheme")
      const { api, key, tenant } = contractor
      const ash = yield* api.contacts.createContact({ path: { tenant }, payload: subcontractor("Ash", utrEndingIn(3)) })
      const refused = yield* raw(key, "POST", `/tenants/${tenant}/contacts/${ash.code}/verification`)
      expect(refused.status).toBe(400)
      expect(refused.contentType).toMatch(/^application\/problem\+json/)
      expect(Object.keys(refused.body?.errors ?? {})).toEqual(["employerReference", "accountsOfficeReference"])
      expect((yield* api.contacts.getContact({ path: { tenant, code: ash.code } })).verification?.source).toBeNull()
      yield* registerCisScheme(contractor, tenant)
      const asked = yield* raw(key, "POST", `/tenants/${tenant}/contacts/${ash.code}/verification`)
      expect(asked.status).toBe(202)
      expect(asked.body?.verification?.message).toBe("Verification requested")
    })
  )

  it.effect("is 404 for an unknown contact or another tenant's, and 403 for a tenant the caller is not in", () =>
    Effect.gen(function* () {
      const a = yield* owner("verifya")
      const b = yield* owner("verifyb")
      const theirs = yield* b.api.contacts.createContact({
        path: { tenant: b.tenant },
        payload: subcontractor("Ash", utrEndingIn(2))
      })
      expect((yield* raw(a.key, "POST", `/tenants/${a.tenant}/contacts/NOPE/verification`)).status).toBe(404)
      expect((yield* raw(a.key, "POST", `/tenants/${a.tenant}/contacts/${theirs.code}/verification`)).status).toBe(404)
      expect((yield* raw(a.key, "POST", `/tenants/${b.tenant}/contacts/${theirs.code}/verification`)).status).toBe(403)
      const untouched = yield* b.api.contacts.getContact({ path: { tenant: b.tenant, code: theirs.code } })
      expect(untouched.verification?.source).toBeNull()
    })
  )
})
