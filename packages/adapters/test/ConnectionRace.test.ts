import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { SandboxTaxAuthority } from "@cisbook/adapters/taxauthority/SandboxTaxAuthority"
import { webhookTransport } from "@cisbook/adapters/webhooks/WebhookTransportLive"
import { Email } from "@cisbook/core/Email"
import { MailOutbox } from "@cisbook/core/ports/MailOutbox"
import { TenantCode } from "@cisbook/core/Tenant"
import { UseCasesLive } from "@cisbook/core/UseCases"
import { Connections } from "@cisbook/core/usecases/Connections"
import { Contacts } from "@cisbook/core/usecases/Contacts"
import { Tenants } from "@cisbook/core/usecases/Tenants"
import { Users } from "@cisbook/core/usecases/Users"
import { AppLinksFake } from "@cisbook/testkit/AppLinksFake"
import { identityVerifierFake } from "@cisbook/testkit/IdentityVerifierFake"
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"

/** The use cases over the real database: on PostgreSQL (CISBOOK_TEST_DATABASE_URL) creates really overlap. */
const App = UseCasesLive.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      SqlPortsLive,
      identityVerifierFake({}),
      webhookTransport({ allowPrivateTargets: false }),
      SandboxTaxAuthority,
      AppLinksFake
    )
  ),
  Layer.provideMerge(SystemLive),
  Layer.provide(EphemeralDatabase)
)

const RACERS = 20

layer(App, { timeout: "120 seconds" })("connections of one contact, created at once", (it) => {
  it.effect("exactly one is created and its invitation queued; every other is a Conflict", () =>
    Effect.gen(function* () {
      const owner = yield* (yield* Users).create({ email: Email.make("racing@example.com"), name: "Racer" })
      yield* (yield* Tenants).create(owner, { code: TenantCode.make("conn-race"), name: "Race", email: null })
      const contact = yield* (yield* Contacts).create(owner, "conn-race", {
        name: "Sub One",
        isSupplier: true,
        isCisSubcontractor: true
      })
      const connections = yield* Connections
      const invitee = "invitee-race@example.com"
      const exits = yield* Effect.forEach(
        Array.from({ length: RACERS }),
        () =>
          Effect.exit(
            connections.create(owner, "conn-race", { contact: contact.code, direction: "In", email: invitee })
          ),
        { concurrency: RACERS }
      )
      const outcomes = exits.map((exit) =>
        Exit.match(exit, {
          onSuccess: () => "Created",
          onFailure: (cause) => (cause._tag === "Fail" ? cause.error._tag : "Defect")
        })
      )
      expect(outcomes.filter((o) => o === "Created")).toHaveLength(1)
      expect(outcomes.filter((o) => o === "Conflict")).toHaveLength(RACERS - 1)
      const mails = yield* (yield* MailOutbox).list({ status: null, limit: 1000 })
      expect(mails.filter((m) => m.to === invitee)).toHaveLength(1)
      expect(yield* connections.list(owner, "conn-race", { contact: contact.code })).toHaveLength(1)
    })
  )
})
