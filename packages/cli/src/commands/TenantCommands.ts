import { Email } from "@cisbook/core/Email"
import type { HmrcCredentialsSummary } from "@cisbook/core/credentials/HmrcCredentials"
import { HmrcCredentialsSettings } from "@cisbook/core/credentials/HmrcCredentialsSettings"
import { TenantCode, TenantName } from "@cisbook/core/tenants/Tenant"
import { ValidationFailed } from "@cisbook/core/Errors"
import { Tenants } from "@cisbook/core/tenants/Tenants"
import { TenantSettings } from "@cisbook/core/tenants/TenantSettings"
import { Users } from "@cisbook/core/users/Users"
import { decodeInput } from "@cisbook/core/Validation"
import { asUser } from "@cisbook/core/users/ActingAs"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option, Redacted, Schema } from "effect"
import { admin } from "../Admin.js"
import { asSupport } from "@cisbook/core/tenants/ActingFor"
import { HmrcCredentialsSettingsLive, TenantSettingsLive, TenantsLive, UsersLive } from "../AdminUseCases.js"
import { SecretInput } from "../SecretInput.js"
import { table } from "../Table.js"
import { emailOption } from "./UserCommands.js"

const NewTenant = Schema.Struct({
  code: TenantCode,
  name: TenantName,
  owner: Email,
  email: Schema.NullOr(Email)
})

const createTenant = Command.make(
  "create",
  {
    code: Options.text("code").pipe(
      Options.withDescription("URL stub: 3-40 of a-z, 0-9 and -, starting with a letter")
    ),
    name: Options.text("name").pipe(Options.withDescription("The organisation's display name")),
    owner: emailOption("owner", "Email address of an existing user, who becomes the Owner"),
    email: Options.text("email").pipe(Options.optional, Options.withDescription("The organisation's email address"))
  },
  (flags) =>
    admin(
      [UsersLive, TenantsLive],
      Effect.gen(function* () {
        const input = yield* decodeInput(NewTenant)({ ...flags, email: Option.getOrNull(flags.email) })
        const owner = yield* (yield* Users).byEmail(input.owner)
        const { tenant } = yield* (yield* Tenants)
          .create({ code: input.code, name: input.name, email: input.email })
          .pipe(asUser(owner))
        yield* Console.log(`Created tenant ${tenant.code} (${tenant.name}), owned by ${owner.email}.`)
      })
    )
).pipe(Command.withDescription("Create a tenant with an existing user as its Owner"))

const listTenants = Command.make("list", {}, () =>
  admin(
    [TenantsLive],
    Effect.gen(function* () {
      const tenants = yield* (yield* Tenants).listAll()
      if (tenants.length === 0) return yield* Console.log("No tenants yet.")
      yield* Console.log(
        table(
          ["CODE", "NAME", "EMAIL", "OWNERS", "CREATED"],
          tenants.map(({ owners, tenant }) => [
            tenant.code,
            tenant.name,
            tenant.email ?? "",
            owners.join(", "),
            tenant.createdAt.toISOString()
          ])
        )
      )
    })
  )
).pipe(Command.withDescription("List every tenant with its owners"))

const cisScheme = Command.make(
  "cis-scheme",
  {
    tenant: Options.text("tenant").pipe(Options.withDescription("The code of the tenant")),
    employerReference: Options.text("employer-reference").pipe(
      Options.optional,
      Options.withDescription("Employer PAYE reference to set, e.g. 123/AB45678 (with --accounts-office-reference)")
    ),
    accountsOfficeReference: Options.text("accounts-office-reference").pipe(
      Options.optional,
      Options.withDescription("Accounts Office reference to set, e.g. 123PW12345678 (with --employer-reference)")
    )
  },
  ({ accountsOfficeReference, employerReference, tenant }) =>
    admin(
      [TenantsLive, TenantSettingsLive],
      Effect.gen(function* () {
        const settings = yield* TenantSettings
        const given = Option.all({ employerReference, accountsOfficeReference })
        if (Option.isNone(given) && (Option.isSome(employerReference) || Option.isSome(accountsOfficeReference)))
          return yield* Effect.fail(
            new ValidationFailed({
              detail: "Give both --employer-reference and --accounts-office-reference to set the scheme.",
              errors: {}
            })
          )
        const scheme = Option.isSome(given)
          ? Option.some(yield* settings.setCisScheme(given.value).pipe(asSupport(tenant)))
          : yield* settings.cisScheme().pipe(asSupport(tenant))
        yield* Console.log(
          Option.match(scheme, {
            onNone: () => `${tenant} has no CIS scheme registration: it cannot file returns or verify subcontractors.`,
            onSome: (s) =>
              `${tenant} files under employer reference ${s.scheme.employerReference}, Accounts Office reference ${s.scheme.accountsOfficeReference}, registered with HMRC for CIS from ${s.registeredFrom}.`
          })
        )
      })
    )
).pipe(Command.withDescription("Show a tenant's CIS scheme registration, or set it with both references"))

const describeCredentials = (tenant: string, summary: Option.Option<HmrcCredentialsSummary>) =>
  Option.match(summary, {
    onNone: () =>
      `${tenant} has no HMRC credentials: it cannot file returns or verify subcontractors until they are set (--set).`,
    onSome: (c) =>
      `${tenant} files with Government Gateway user id ${c.gatewayUserId} as ${c.filer}; status ${c.status} (set ${c.updatedAt.toISOString()}).`
  })

const hmrcCredentials = Command.make(
  "hmrc-credentials",
  {
    tenant: Options.text("tenant").pipe(Options.withDescription("The code of the tenant")),
    set: Options.boolean("set").pipe(
      Options.withDescription(
        "Set or replace them: the user id and then the password are read from standard input (asked for at a terminal, the password hidden; else its first two lines), never from an argument"
      )
    ),
    filer: Options.choice("filer", ["Contractor", "Agent"]).pipe(
      Options.withDefault("Contractor" as const),
      Options.withDescription(
        "With --set: Contractor (its own credentials) or Agent (an agent's, filing for its client)"
      )
    )
  },
  ({ filer, set, tenant }) =>
    admin(
      [TenantsLive, HmrcCredentialsSettingsLive],
      Effect.gen(function* () {
        const credentials = yield* HmrcCredentialsSettings
        if (!set)
          return yield* Console.log(describeCredentials(tenant, yield* credentials.get().pipe(asSupport(tenant))))
        const { password, userId } = yield* (yield* SecretInput).read("Government Gateway user id", "Password")
        const summary = yield* credentials
          .set({ gatewayUserId: userId, password: Redacted.value(password), filer })
          .pipe(asSupport(tenant))
        yield* Console.log(describeCredentials(tenant, Option.some(summary)))
      })
    )
).pipe(
  Command.withDescription(
    "Show a tenant's HMRC (Government Gateway) credentials without the password, or set them from standard input"
  )
)

const resealCredentials = Command.make("reseal-credentials", {}, () =>
  admin(
    [HmrcCredentialsSettingsLive],
    Effect.gen(function* () {
      const resealed = yield* (yield* HmrcCredentialsSettings).reseal()
      yield* Console.log(`Re-encrypted ${resealed} tenants' HMRC passwords under the current CREDENTIALS_KEY.`)
    })
  )
).pipe(
  Command.withDescription(
    "After a key rotation (CREDENTIALS_KEY new, CREDENTIALS_KEY_PREVIOUS the old one): re-encrypt every stored HMRC password under the current key"
  )
)

export const TenantsCommand = Command.make("tenants").pipe(
  Command.withDescription("Tenants (organisations)"),
  Command.withSubcommands([createTenant, listTenants, cisScheme, hmrcCredentials, resealCredentials])
)
