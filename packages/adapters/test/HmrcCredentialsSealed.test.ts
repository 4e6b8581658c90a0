import {
  credentialsKey,
  makeCredentialsCipher,
  CredentialsCipher
} from "@cisbook/adapters/credentials/CredentialsCipher"
import { EphemeralDatabase } from "@cisbook/adapters/sql/EphemeralDatabase"
import { HmrcCredentialsRepoSql } from "@cisbook/adapters/sql/HmrcCredentialsRepoSql"
import { SqlPortsLive } from "@cisbook/adapters/sql/SqlPortsLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { SenderCredentials } from "@cisbook/core/credentials/HmrcCredentials"
import { HmrcCredentialsRepo } from "@cisbook/core/credentials/HmrcCredentialsRepo"
import { storedTenant } from "@cisbook/testkit/contracts/Fixtures"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"

const oldKey = credentialsKey(randomBytes(32))
const newKey = credentialsKey(randomBytes(32))
const PASSWORD = "Correct-Horse-Battery-9"

/** The repository under a given key set, over the test's database. */
const repoUnder = (current: typeof oldKey, previous: ReadonlyArray<typeof oldKey>) =>
  Effect.provide(
    HmrcCredentialsRepo,
    HmrcCredentialsRepoSql.pipe(
      Layer.provide(Layer.succeed(CredentialsCipher, makeCredentialsCipher(current, previous)))
    )
  )

layer(SqlPortsLive.pipe(Layer.provideMerge(SystemLive), Layer.provideMerge(EphemeralDatabase)), {
  timeout: "60 seconds"
})("HMRC passwords at rest", (it) => {
  it.effect("are sealed: the row holds no password, and a row copied to another tenant does not open", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const repo = yield* repoUnder(oldKey, [])
      const tenant = yield* storedTenant
      const other = yield* storedTenant
      yield* repo.set(
        tenant.id,
        new SenderCredentials({ gatewayUserId: "123456789012", password: Redacted.make(PASSWORD), filer: "Agent" }),
        new Date()
      )
      const [row] = yield* sql<{ passwordSealed: string }>`
          SELECT password_sealed FROM hmrc_credentials WHERE tenant_id = ${tenant.id}`
      expect(row!.passwordSealed).not.toContain(PASSWORD)
      expect(row!.passwordSealed).not.toContain(Buffer.from(PASSWORD).toString("base64").slice(0, 12))
      expect(row!.passwordSealed.split(".").slice(0, 2)).toEqual(["v1", oldKey.id])
      // The same row under another tenant: the seal is bound to its tenant.
      yield* sql`
          INSERT INTO hmrc_credentials (tenant_id, gateway_user_id, password_sealed, filer, status, updated_at)
          SELECT ${other.id}, gateway_user_id, password_sealed, filer, status, updated_at FROM hmrc_credentials
          WHERE tenant_id = ${tenant.id}`
      // What does not open counts as none (an error is logged): nothing is sent with it.
      expect(yield* repo.find(other.id)).toEqual(Option.none())
      expect(Option.map(yield* repo.find(tenant.id), (c) => Redacted.value(c.credentials.password))).toEqual(
        Option.some(PASSWORD)
      )
    })
  )

  it.effect("a key rotation: the previous key still opens, reseal re-encrypts under the new one, once", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const tenant = yield* storedTenant
      const before = yield* repoUnder(oldKey, [])
      yield* before.set(
        tenant.id,
        new SenderCredentials({ gatewayUserId: "U1", password: Redacted.make(PASSWORD), filer: "Contractor" }),
        new Date()
      )
      const rotating = yield* repoUnder(newKey, [oldKey])
      expect(Option.map(yield* rotating.find(tenant.id), (c) => Redacted.value(c.credentials.password))).toEqual(
        Option.some(PASSWORD)
      )
      expect(yield* rotating.reseal()).toBeGreaterThanOrEqual(1)
      expect(yield* rotating.reseal()).toBe(0)
      const [row] = yield* sql<{ passwordSealed: string }>`
          SELECT password_sealed FROM hmrc_credentials WHERE tenant_id = ${tenant.id}`
      expect(row!.passwordSealed.split(".")[1]).toBe(newKey.id)
      // Without the old key, the re-sealed password still opens.
      const after = yield* repoUnder(newKey, [])
      expect(Option.map(yield* after.find(tenant.id), (c) => Redacted.value(c.credentials.password))).toEqual(
        Option.some(PASSWORD)
      )
    })
  )
})
