import { Verifications } from "@cisbook/core/verification/Verifications"
import { Command, Options } from "@effect/cli"
import { Console, Effect } from "effect"
import { admin } from "../Admin.js"
import { asSupport } from "@cisbook/core/tenants/ActingFor"
import { TenantsLive, VerificationsLive } from "../AdminUseCases.js"

export const verifyContact = Command.make(
  "verify",
  {
    tenant: Options.text("tenant").pipe(Options.withDescription("The code of the tenant")),
    code: Options.text("code").pipe(Options.withDescription("The code of the CIS subcontractor to verify"))
  },
  ({ code, tenant }) =>
    admin(
      [TenantsLive, VerificationsLive],
      Effect.gen(function* () {
        const contact = yield* (yield* Verifications).request(code).pipe(asSupport(tenant))
        yield* Console.log(
          `Verification of ${contact.code} (${contact.name}) requested; the server's worker sends it to the tax authority and records the answer on the contact.`
        )
      })
    )
).pipe(
  Command.withDescription(
    "Start a CIS subcontractor's verification with the tax authority (queued; the server's worker sends it)"
  )
)
