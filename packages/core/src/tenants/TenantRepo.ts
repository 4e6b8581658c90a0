import { Context, type Effect, type Option } from "effect"
import type { Email } from "../Email.js"
import type { TenantId, UserId } from "../Ids.js"
import type { Membership, Role, Tenant, TenantAccess, TenantCode } from "./Tenant.js"
import type { DuplicateKey } from "../system/DuplicateKey.js"

export interface Member {
  readonly userId: UserId
  readonly email: Email | null
  readonly name: string
  readonly role: Role
  readonly addedAt: Date
}

export interface TenantSummary {
  readonly tenant: Tenant
  readonly owners: ReadonlyArray<Email>
}

export class TenantRepo extends Context.Tag("core/TenantRepo")<
  TenantRepo,
  {
    /** Fails with DuplicateKey "code" when the code is taken. */
    readonly insert: (tenant: Tenant, owner: Membership) => Effect.Effect<void, DuplicateKey>
    readonly findByCode: (code: TenantCode) => Effect.Effect<Option.Option<Tenant>>
    readonly listForUser: (userId: UserId) => Effect.Effect<ReadonlyArray<TenantAccess>>
    readonly findRole: (tenantId: TenantId, userId: UserId) => Effect.Effect<Option.Option<Role>>
    /** The tenant with this code and the user's role in it (none when not a member), in one read. */
    readonly findAccess: (
      code: TenantCode,
      userId: UserId
    ) => Effect.Effect<Option.Option<{ readonly tenant: Tenant; readonly role: Option.Option<Role> }>>
    /** Fails with DuplicateKey "membership" when the user is already a member. */
    readonly addMember: (membership: Membership) => Effect.Effect<void, DuplicateKey>
    readonly listMembers: (tenantId: TenantId) => Effect.Effect<ReadonlyArray<Member>>
    /** Every tenant, by code, with its owners' emails in order: for support staff only. */
    readonly listAll: () => Effect.Effect<ReadonlyArray<TenantSummary>>
  }
>() {}
