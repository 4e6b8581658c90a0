import { describe, expect, it } from "@effect/vitest"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import {
  everyAccessDeclared,
  forAnyone,
  forTenantMembers,
  forTenantMembersOrNotFound,
  forUsers
} from "../src/Access.js"
import { Authenticate } from "../src/Authenticate.js"
import { TenantMember, TenantMemberOrNotFound } from "../src/TenantMember.js"

const endpoint = () => HttpApiEndpoint.get("one", "/one")
const group = () => HttpApiGroup.make("things").add(endpoint())
const api = () => HttpApi.make("api")
const declaredByEndpoint = () => HttpApiGroup.make("mixed").add(forTenantMembers(endpoint()))

describe("access declared", () => {
  // The platform runs the last declared middleware first: Authenticate, then the tenant's, which needs its user.
  it("adds the tenant middleware, then Authenticate, to a group or an endpoint", () => {
    expect([...forTenantMembers(group()).middlewares]).toEqual([TenantMember, Authenticate])
    expect([...forTenantMembersOrNotFound(group()).middlewares]).toEqual([TenantMemberOrNotFound, Authenticate])
    expect([...forTenantMembers(endpoint()).middlewares]).toEqual([TenantMember, Authenticate])
    expect([...forUsers(group()).middlewares]).toEqual([Authenticate])
    expect([...forAnyone(group()).middlewares]).toEqual([])
  })

  it("is the only way to name the access middlewares, which the compiler checks", () => {
    // Each line below fails to compile (`pnpm typecheck` fails if one compiles); none runs.
    const wrongOrders = () => [
      // @ts-expect-error Authenticate declared first would run last, after the tenant middleware that needs its user.
      forTenantMembers(HttpApiGroup.make("things").add(endpoint()).middleware(Authenticate)),
      // @ts-expect-error An endpoint that names one itself.
      forTenantMembers(HttpApiGroup.make("things").add(endpoint().middleware(TenantMember))),
      // @ts-expect-error A group whose access was declared, then changed.
      everyAccessDeclared(api().add(forUsers(group()).middleware(TenantMember))),
      // @ts-expect-error The middlewares named by hand, even in the order that works.
      everyAccessDeclared(api().add(group().middleware(TenantMember).middleware(Authenticate))),
      // @ts-expect-error A group whose access is not declared at all.
      everyAccessDeclared(api().add(forUsers(group())).add(HttpApiGroup.make("other").add(endpoint()))),
      // @ts-expect-error Endpoints declared one by one, under a middleware the group names itself.
      everyAccessDeclared(api().add(declaredByEndpoint().middleware(Authenticate)))
    ]
    expect(typeof wrongOrders).toBe("function")
    const declared = everyAccessDeclared(
      api()
        .add(forTenantMembers(group()))
        .add(
          HttpApiGroup.make("mixed")
            .add(forUsers(endpoint()))
            .add(forAnyone(HttpApiEndpoint.get("two", "/two")))
        )
    )
    expect(Object.keys(declared.groups)).toEqual(["things", "mixed"])
  })
})
