// A project outside the workspace using the packed SDK from plain Node: both clients, a typed
// failure, and an idempotent create. Prints what it saw as one JSON line.
import { makeClient } from "@cisbook/sdk/Client"
import { withIdempotencyKey } from "@cisbook/sdk/IdempotencyKey"
import { createPromiseClient } from "@cisbook/sdk/PromiseClient"
import { FetchHttpClient } from "@effect/platform"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import process from "node:process"

const baseUrl = process.env.CISBOOK_URL
const credentials = { apiKey: process.env.CISBOOK_KEY }
const code = process.env.CISBOOK_TENANT

const cisbook = await createPromiseClient({ baseUrl, credentials })
const me = await cisbook.me.getMe()
const idempotencyKey = randomUUID()
const created = await cisbook.tenants.createTenant({ payload: { code, name: "Packed Ltd" } }, { idempotencyKey })
const replayed = await cisbook.tenants.createTenant({ payload: { code, name: "Packed Ltd" } }, { idempotencyKey })
const promiseFailure = await cisbook.tenants.getTenant({ path: { tenant: `${code}-missing` } }).catch((e) => e._tag)

const viaEffect = await Effect.gen(function* () {
  const client = yield* makeClient({ baseUrl, credentials })
  const tenant = yield* client.tenants.getTenant({ path: { tenant: code } })
  const contact = yield* client.contacts
    .createContact({ path: { tenant: code }, payload: { name: "Packed Builders", isSupplier: true } })
    .pipe(withIdempotencyKey(randomUUID()))
  const failure = yield* Effect.flip(client.tenants.getTenant({ path: { tenant: `${code}-missing` } }))
  return { tenant: tenant.code, contact: contact.code, failure: failure._tag }
}).pipe(Effect.provide(FetchHttpClient.layer), Effect.runPromise)

process.stdout.write(
  `${JSON.stringify({
    me: me.email,
    created: created.code,
    replayedSame: replayed.code === created.code,
    promiseFailure,
    viaEffect
  })}\n`
)
