import { Email } from "@cisbook/core/Email"
import { BillingProfiles } from "@cisbook/core/usecases/BillingProfiles"
import { Mandates } from "@cisbook/core/usecases/Mandates"
import { Users } from "@cisbook/core/usecases/Users"
import { decodeInput } from "@cisbook/core/Validation"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { admin } from "../Admin.js"
import { table } from "../Table.js"

/** What support sees of a user's mandate: as last stored, without asking the provider. */
const mandate = Command.make(
  "mandate",
  { email: Options.text("email").pipe(Options.withDescription("The user's email address")) },
  ({ email }) =>
    admin(
      Effect.gen(function* () {
        const user = yield* (yield* Users).byEmail(yield* decodeInput(Email)(email))
        const profile = yield* (yield* BillingProfiles).get(user)
        const latest = yield* (yield* Mandates).latestOf(user)
        const billedTo = Option.match(profile.address, {
          onNone: () => "(no billing address)",
          onSome: (a) => `${a.companyName}, ${a.billingEmail}, ${a.postcode} ${a.country}`
        })
        if (Option.isNone(latest)) {
          return yield* Console.log(`${user.email}: mandate NotStarted. Billing address: ${billedTo}`)
        }
        const m = latest.value
        yield* Console.log(
          table(
            ["STATUS", "REFERENCE", "ACCOUNT HOLDER", "BANK", "ACCOUNT", "NEXT CHARGE", "REDIRECT FLOW", "STARTED"],
            [
              [
                m.status,
                m.reference ?? "",
                m.accountHolderName ?? "",
                m.bankName ?? "",
                m.accountNumberEnding === null ? "" : `******${m.accountNumberEnding}`,
                m.nextPossibleChargeDate ?? "",
                m.redirectFlowId ?? "",
                m.createdAt.toISOString()
              ]
            ]
          )
        )
        yield* Console.log(`Billing address: ${billedTo}`)
      })
    )
).pipe(Command.withDescription("A user's latest direct debit mandate and billing address, as last stored"))

export const BillingCommand = Command.make("billing").pipe(
  Command.withDescription("Billing of the service's users"),
  Command.withSubcommands([mandate])
)
