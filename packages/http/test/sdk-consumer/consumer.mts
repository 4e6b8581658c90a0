// Type-checked against the packed SDK's declarations in the consumer project.
import { makeClient } from "@cisbook/sdk/Client"
import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { Effect } from "effect"

const cisbook = await createPromiseClient({ baseUrl: "http://localhost:3000", credentials: { apiKey: "cis_x" } })
const tenant = await cisbook.tenants.createTenant({ payload: { code: "acme", name: "Acme Ltd" } })
export const code: string = tenant.code
// @ts-expect-error: a tenant's code is a string; the declarations know the payload's shape
await cisbook.tenants.createTenant({ payload: { code: 1, name: "Acme Ltd" } })

export const program = Effect.flatMap(makeClient({ baseUrl: "http://localhost:3000" }), (client) =>
  client.tenants
    .getTenant({ path: { tenant: "acme" } })
    .pipe(Effect.catchTag("NotFound", (e) => Effect.succeed(e.detail)))
)
