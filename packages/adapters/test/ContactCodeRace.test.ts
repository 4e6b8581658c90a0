import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { BillingProvidersFake } from "@cisbook/testkit/BillingProvidersFake"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { webhookTransport } from "@cisbook/adapters/webhooks/WebhookTransportLive"
import { Email } from "@cisbook/core/Email"
import { TenantCode } from "@cisbook/core/Tenant"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { Contacts } from "@cisbook/core/usecases/Contacts"
import { Tenants } from "@cisbook/core/usecases/Tenants"
import { Users } from "@cisbook/core/usecases/Users"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"

/** The use cases over the real database: on PostgreSQL (CISBOOK_TEST_DATABASE_URL) creates really overlap. */
const App = UseCasesLive.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      SqlPortsLive,
      BillingProvidersFake,
      identityVerifierFake({}),
      webhookTransport({ allowPrivateTargets: false })
    )
  ),
  Layer.provideMerge(SystemLive),
  Layer.provide(EphemeralDatabase)
)

const RACERS = 24

layer(App, { timeout: "120 seconds" })("contacts of one name, created at once", (it) => {
  it.effect("all succeed, each under its own code", () =>
    Effect.gen(function* () {
      const owner = yield* (yield* Users).create({ email: Email.make("racer@example.com"), name: "Racer" })
      yield* (yield* Tenants).create(owner, { code: TenantCode.make("code-race"), name: "Race", email: null })
      const contacts = yield* Contacts
      const created = yield* Effect.forEach(
        Array.from({ length: RACERS }),
        () => contacts.create(owner, "code-race", { name: "Acme Builders", isCustomer: true }),
        { concurrency: RACERS }
      )
      // The first 24 codes of the name, each given once: ACMEBUIL, ACMEBUI2..ACMEBUI9, ACMEBU10..ACMEBU24.
      const expected = [
        "ACMEBUIL",
        ...Array.from({ length: RACERS - 1 }, (_, i) => {
          const n = String(i + 2)
          return "ACMEBUIL".slice(0, 8 - n.length) + n
        })
      ]
      expect(created.map((contact) => contact.code).sort()).toEqual(expected.sort())
    })
  )
})
