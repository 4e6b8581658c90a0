import { Email } from "@cisbook/core/Email"
import { TenantCode } from "@cisbook/core/tenants/Tenant"
import { Contacts } from "@cisbook/core/contacts/Contacts"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { Users } from "@cisbook/core/users/Users"
import { asMember } from "@cisbook/core/tenants/ActingFor"
import { expect, layer } from "@effect/vitest"
import { UseCasesOverSql } from "./UseCasesOverSql.js"
import { Effect } from "effect"
import { asUser } from "@cisbook/core/users/ActingAs"

const App = UseCasesOverSql

const RACERS = 24

layer(App, { timeout: "120 seconds" })("contacts of one name, created at once", (it) => {
  it.effect("all succeed, each under its own code", () =>
    Effect.gen(function* () {
      const owner = yield* (yield* Users).create({ email: Email.make("racer@example.com"), name: "Racer" })
      yield* (yield* Tenants)
        .create({ code: TenantCode.make("code-race"), name: "Race", email: null })
        .pipe(asUser(owner))
      const contacts = yield* Contacts
      const created = yield* Effect.forEach(
        Array.from({ length: RACERS }),
        () => contacts.create({ name: "Acme Builders", isCustomer: true }).pipe(asMember(owner, "code-race")),
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
