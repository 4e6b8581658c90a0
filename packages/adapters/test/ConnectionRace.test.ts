import { Email } from "@cisbook/core/Email"
import { MailOutbox } from "@cisbook/core/mail/MailOutbox"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Connections } from "@cisbook/core/connections/Connections"
import { Contacts } from "@cisbook/core/contacts/Contacts"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { expect, layer } from "@effect/vitest"
import { UseCasesOverSql } from "./UseCasesOverSql.js"
import { Effect, Exit } from "effect"
import { asUser } from "@cisbook/core/users/ActingAs"

const App = UseCasesOverSql

const RACERS = 20

layer(App, { timeout: "120 seconds" })("connections of one contact, created at once", (it) => {
  it.effect("exactly one is created and its invitation queued; every other is a Conflict", () =>
    Effect.gen(function* () {
      const owner = yield* (yield* Users).create({ email: Email.make("racing@example.com"), name: "Racer" })
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("conn-race"), name: "Race", email: null })
        .pipe(asUser(owner))
      const contact = yield* (yield* Contacts)
        .create({
          name: "Sub One",
          isSupplier: true,
          isCisSubcontractor: true
        })
        .pipe(asMember(owner, "conn-race"))
      const connections = yield* Connections
      const invitee = "invitee-race@example.com"
      const exits = yield* Effect.forEach(
        Array.from({ length: RACERS }),
        () =>
          Effect.exit(
            connections
              .create({ contact: contact.code, direction: "In", email: invitee })
              .pipe(asMember(owner, "conn-race"))
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
      expect(yield* connections.list({ contact: contact.code }).pipe(asMember(owner, "conn-race"))).toHaveLength(1)
    })
  )
})
