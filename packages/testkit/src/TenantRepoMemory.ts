import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import type { Membership, Tenant } from "@cisbook/core/tenants/Tenant"
import { Effect, Layer, Option, Order, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"
import { UserStore } from "./UserRepoMemory.js"

interface State {
  readonly tenants: ReadonlyArray<Tenant>
  readonly memberships: ReadonlyArray<Membership>
}

/** Every tenant and membership (BillingInvoiceRepoMemory reads who owns what). */
export class TenantStore extends Effect.Service<TenantStore>()("testkit/TenantStore", {
  effect: Effect.flatMap(MemoryJournal, (journal) => journal.ref<State>({ tenants: [], memberships: [] }))
}) {}

// As PostgreSQL orders them: members without an address last.
const emailOrder = Order.make<string | null>((a, b) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : Order.string(a, b)
)

export const TenantRepoMemory = Layer.effect(
  TenantRepo,
  Effect.gen(function* () {
    const users = yield* UserStore
    const state = yield* TenantStore
    const addOrClash = (key: string, clash: (s: State) => boolean, next: (s: State) => State) =>
      Ref.modify(state, (s) => (clash(s) ? ([true, s] as const) : ([false, next(s)] as const))).pipe(
        Effect.flatMap((clashed) => (clashed ? Effect.fail(new DuplicateKey({ key })) : Effect.void))
      )
    return TenantRepo.of({
      insert: (tenant, owner) =>
        addOrClash(
          "code",
          (s) => s.tenants.some((t) => t.code === tenant.code),
          (s) => ({ tenants: [...s.tenants, tenant], memberships: [...s.memberships, owner] })
        ),
      findByCode: (code) =>
        Ref.get(state).pipe(Effect.map((s) => Option.fromNullable(s.tenants.find((t) => t.code === code)))),
      listForUser: (userId) =>
        Ref.get(state).pipe(
          Effect.map((s) =>
            s.tenants
              .flatMap((tenant) => {
                const m = s.memberships.find((m) => m.tenantId === tenant.id && m.userId === userId)
                return m ? [{ tenant, role: m.role }] : []
              })
              .sort((a, b) => Order.string(a.tenant.code, b.tenant.code))
          )
        ),
      findRole: (tenantId, userId) =>
        Ref.get(state).pipe(
          Effect.map((s) =>
            Option.fromNullable(s.memberships.find((m) => m.tenantId === tenantId && m.userId === userId)?.role)
          )
        ),
      findAccess: (code, userId) =>
        Ref.get(state).pipe(
          Effect.map((s) =>
            Option.map(Option.fromNullable(s.tenants.find((t) => t.code === code)), (tenant) => ({
              tenant,
              role: Option.fromNullable(
                s.memberships.find((m) => m.tenantId === tenant.id && m.userId === userId)?.role
              )
            }))
          )
        ),
      addMember: (membership) =>
        addOrClash(
          "membership",
          (s) => s.memberships.some((m) => m.tenantId === membership.tenantId && m.userId === membership.userId),
          (s) => ({ ...s, memberships: [...s.memberships, membership] })
        ),
      listMembers: (tenantId) =>
        Effect.all([Ref.get(state), Ref.get(users)]).pipe(
          Effect.map(([s, us]) =>
            s.memberships
              .filter((m) => m.tenantId === tenantId)
              .flatMap((m) => {
                const u = us.get(m.userId)
                return u ? [{ userId: u.id, email: u.email, name: u.name, role: m.role, addedAt: m.addedAt }] : []
              })
              .sort((a, b) => a.addedAt.getTime() - b.addedAt.getTime() || emailOrder(a.email, b.email))
          )
        ),
      listAll: () =>
        Effect.all([Ref.get(state), Ref.get(users)]).pipe(
          Effect.map(([s, us]) =>
            [...s.tenants]
              .sort((a, b) => Order.string(a.code, b.code))
              .map((tenant) => ({
                tenant,
                owners: s.memberships
                  .filter((m) => m.tenantId === tenant.id && m.role === "Owner")
                  .flatMap((m) => us.get(m.userId)?.email ?? [])
                  .sort(Order.string)
              }))
          )
        )
    })
  })
)
