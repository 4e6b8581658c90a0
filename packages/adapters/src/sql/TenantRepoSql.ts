import { Email } from "@cisbook/core/Email"
import { UserId } from "@cisbook/core/Ids"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { type Membership, Role, Tenant } from "@cisbook/core/tenants/Tenant"
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { uniqueWrite } from "./UniqueWrite.js"

const TenantAccessRow = Schema.Struct({ ...Tenant.fields, role: Role })

const MemberRow = Schema.Struct({
  userId: UserId,
  email: Schema.NullOr(Email),
  name: Schema.String,
  role: Role,
  addedAt: Schema.DateFromSelf
})

const MembershipKey = Schema.Struct({ tenantId: Schema.String, userId: Schema.String })

export const TenantRepoSql = Layer.effect(
  TenantRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const tenantWrite = uniqueWrite(sql, { tenants_code_key: "code" })
    const membershipWrite = uniqueWrite(sql, { memberships_pkey: "membership" })

    const findByCode = SqlSchema.findOne({
      Request: Schema.String,
      Result: Tenant,
      execute: (code) => sql`SELECT id, code, name, email, created_at FROM tenants WHERE code = ${code}`
    })
    // Codes and emails are ordered by code point (COLLATE "C"), as on every server whatever its locale.
    const listForUser = SqlSchema.findAll({
      Request: Schema.String,
      Result: TenantAccessRow,
      execute: (userId) => sql`
        SELECT t.id, t.code, t.name, t.email, t.created_at, m.role
        FROM memberships m JOIN tenants t ON t.id = m.tenant_id
        WHERE m.user_id = ${userId}
        ORDER BY t.code COLLATE "C"`
    })
    const findRole = SqlSchema.findOne({
      Request: MembershipKey,
      Result: Schema.Struct({ role: Role }),
      execute: ({ tenantId, userId }) =>
        sql`SELECT role FROM memberships WHERE tenant_id = ${tenantId} AND user_id = ${userId}`
    })
    const findAccess = SqlSchema.findOne({
      Request: Schema.Struct({ code: Schema.String, userId: Schema.String }),
      Result: Schema.Struct({ ...Tenant.fields, role: Schema.NullOr(Role) }),
      execute: ({ code, userId }) => sql`
        SELECT t.id, t.code, t.name, t.email, t.created_at, m.role
        FROM tenants t LEFT JOIN memberships m ON m.tenant_id = t.id AND m.user_id = ${userId}
        WHERE t.code = ${code}`
    })
    const listMembers = SqlSchema.findAll({
      Request: Schema.String,
      Result: MemberRow,
      execute: (tenantId) => sql`
        SELECT u.id AS user_id, u.email, u.name, m.role, m.added_at
        FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.tenant_id = ${tenantId}
        ORDER BY m.added_at, u.email COLLATE "C"`
    })
    const listAll = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ ...Tenant.fields, owners: Schema.Array(Email) }),
      execute: () => sql`
        SELECT t.id, t.code, t.name, t.email, t.created_at,
               coalesce(array_agg(u.email ORDER BY u.email COLLATE "C") FILTER (WHERE u.email IS NOT NULL), '{}') AS owners
        FROM tenants t
        LEFT JOIN memberships m ON m.tenant_id = t.id AND m.role = 'Owner'
        LEFT JOIN users u ON u.id = m.user_id
        GROUP BY t.id
        ORDER BY t.code COLLATE "C"`
    })
    const insertMembership = (m: Membership) =>
      sql`INSERT INTO memberships ${sql.insert({ tenantId: m.tenantId, userId: m.userId, role: m.role, addedAt: m.addedAt })}`

    return TenantRepo.of({
      insert: (tenant, owner) =>
        sql`INSERT INTO tenants ${sql.insert({
          id: tenant.id,
          code: tenant.code,
          name: tenant.name,
          email: tenant.email,
          createdAt: tenant.createdAt
        })}`.pipe(Effect.zipRight(insertMembership(owner)), sql.withTransaction, Effect.asVoid, tenantWrite),
      findByCode: (code) => findByCode(code).pipe(Effect.orDie),
      listForUser: (userId) =>
        listForUser(userId).pipe(
          Effect.map((rows) => rows.map(({ role, ...tenant }) => ({ tenant: new Tenant(tenant, true), role }))),
          Effect.orDie
        ),
      findRole: (tenantId, userId) =>
        findRole({ tenantId, userId }).pipe(Effect.map(Option.map(({ role }) => role)), Effect.orDie),
      findAccess: (code, userId) =>
        findAccess({ code, userId }).pipe(
          Effect.map(
            Option.map(({ role, ...tenant }) => ({ tenant: new Tenant(tenant, true), role: Option.fromNullable(role) }))
          ),
          Effect.orDie
        ),
      addMember: (membership) => insertMembership(membership).pipe(Effect.asVoid, membershipWrite),
      listMembers: (tenantId) => listMembers(tenantId).pipe(Effect.orDie),
      listAll: () =>
        listAll(undefined).pipe(
          Effect.map((rows) => rows.map(({ owners, ...tenant }) => ({ tenant: new Tenant(tenant, true), owners }))),
          Effect.orDie
        )
    })
  })
)
