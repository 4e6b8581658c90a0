import { Data, Effect, Option, Schema } from "effect"
import { Email } from "../Email.js"
import { Conflict, Forbidden, NotFound } from "../Errors.js"
import { cacheFound } from "../LookupCache.js"
import type { TenantId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { CurrentTenant } from "./CurrentTenant.js"
import { NotAMember } from "./NotAMember.js"
import { type Member, TenantRepo } from "./TenantRepo.js"
import { Membership, type Role, Tenant, type TenantAccess, TenantCode } from "./Tenant.js"
import { CurrentUser } from "../users/CurrentUser.js"
import type { User } from "../users/User.js"
import { Users } from "../users/Users.js"

/**
 * A new tenant, each member checked by its own rule (TenantCodeFormat, TenantName, EmailAddress):
 * the sdk's CreateTenantRequest decodes to it. No email, or null: none.
 */
export interface NewTenant {
  readonly code: string
  readonly name: string
  readonly email?: string | null | undefined
}

/** A member to add, by a checked email address (the sdk's AddMemberRequest decodes to it). */
export interface NewMember {
  readonly email: string
  readonly role: Role
}

const isTenantCode = Schema.is(TenantCode)

export const tenantNotFound = (code: string) => new NotFound({ detail: `There is no tenant with the code ${code}.` })

export class Tenants extends Effect.Service<Tenants>()("core/Tenants", {
  effect: Effect.gen(function* () {
    const repo = yield* TenantRepo
    const users = yield* Users
    const clock = yield* Clock
    const ids = yield* IdGenerator
    // Only a membership is kept: a refusal is read again, so a new member gets in at once.
    const accessOf = yield* cacheFound(
      ({ code, userId }: { readonly code: TenantCode; readonly userId: User["id"] }) => repo.findAccess(code, userId),
      (found) => Option.isSome(found.role)
    )

    /** A new tenant, the current user its Owner. */
    const create = (input: NewTenant): Effect.Effect<TenantAccess, Conflict, CurrentUser> =>
      Effect.gen(function* () {
        const { user: owner } = yield* CurrentUser
        const now = yield* clock.now
        const tenant = new Tenant({
          id: (yield* ids.uuid) as TenantId,
          code: TenantCode.make(input.code),
          name: input.name,
          email: input.email == null ? null : Email.make(input.email),
          createdAt: now
        })
        yield* repo.insert(
          tenant,
          new Membership({ tenantId: tenant.id, userId: owner.id, role: "Owner", addedAt: now })
        )
        return { tenant, role: "Owner" as const }
      }).pipe(
        Effect.catchTag("DuplicateKey", () =>
          Effect.fail(new Conflict({ detail: `The tenant code ${input.code} is taken; choose another.` }))
        ),
        Effect.withSpan("Tenants.create")
      )

    /** The tenants the current user is a member of, with their role in each. */
    const listMine = (): Effect.Effect<ReadonlyArray<TenantAccess>, never, CurrentUser> =>
      CurrentUser.pipe(Effect.flatMap(({ user }) => repo.listForUser(user.id)))

    /** The tenant named by `code` (as it came in a path), if the current user may act for it. */
    const access = (code: string): Effect.Effect<TenantAccess, NotFound | NotAMember, CurrentUser> =>
      Effect.gen(function* () {
        const { user } = yield* CurrentUser
        if (!isTenantCode(code)) return yield* tenantNotFound(code)
        const found = yield* accessOf.get(Data.struct({ code, userId: user.id }))
        if (Option.isNone(found)) return yield* tenantNotFound(code)
        const { role, tenant } = found.value
        if (Option.isSome(role)) return { tenant, role: role.value }
        return yield* new NotAMember({ tenantCode: code, detail: `You are not a member of the tenant ${code}.` })
      })

    const members = (): Effect.Effect<ReadonlyArray<Member>, never, CurrentTenant> =>
      CurrentTenant.pipe(Effect.flatMap(({ tenant }) => repo.listMembers(tenant.id)))

    const addMember = (input: NewMember): Effect.Effect<Member, Forbidden | Conflict, CurrentTenant> =>
      Effect.gen(function* () {
        const { role, tenant } = yield* CurrentTenant
        const code = tenant.code
        if (role !== "Owner") {
          return yield* new Forbidden({ detail: `Only an Owner of ${code} can add members.` })
        }
        const member = yield* users.ensureByEmail(Email.make(input.email))
        const addedAt = yield* clock.now
        yield* repo
          .addMember(new Membership({ tenantId: tenant.id, userId: member.id, role: input.role, addedAt }))
          .pipe(
            Effect.catchTag("DuplicateKey", () =>
              Effect.fail(new Conflict({ detail: `${input.email} is already a member of ${code}.` }))
            )
          )
        return { userId: member.id, email: member.email, name: member.name, role: input.role, addedAt }
      }).pipe(Effect.withSpan("Tenants.addMember"))

    /** Every tenant: for support staff (the admin CLI), never for an API caller. */
    const listAll = () => repo.listAll()

    /** The tenant with this code, whoever asks: for support staff (the admin CLI), never for an API caller. */
    const forSupport = (code: string): Effect.Effect<Tenant, NotFound> =>
      isTenantCode(code)
        ? repo
            .findByCode(code)
            .pipe(
              Effect.flatMap(Option.match({ onNone: () => Effect.fail(tenantNotFound(code)), onSome: Effect.succeed }))
            )
        : Effect.fail(tenantNotFound(code))

    /** Support staff act for any tenant with an Owner's rights. */
    const supportAccess = (code: string): Effect.Effect<TenantAccess, NotFound> =>
      Effect.map(forSupport(code), (tenant) => ({ tenant, role: "Owner" as const }))

    return { create, listMine, access, members, addMember, listAll, forSupport, supportAccess } as const
  })
}) {}
