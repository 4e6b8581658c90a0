import { contactImportForm } from "@cisbook/sdk/ContactImportForm"
import { withIdempotencyKey } from "@cisbook/sdk/IdempotencyKey"
import { importFixture } from "@cisbook/testkit/ImportFixtures"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import { e2e, raw, SqlTestPorts, ownerOfNewTenant } from "./E2E.js"

/** Four rows that all import. */
const csv = fs.readFileSync(importFixture("excel-bom-crlf.csv"))

const contactCount = (key: string, tenant: string) =>
  Effect.map(raw(key, "GET", `/tenants/${tenant}/contacts?limit=50`), (res) => res.body?.["totalCount"] as number)

/** The import form written out by hand, with the boundary given, as a client other than ours might send it. */
const keyedImport = (
  apiKey: string,
  idempotencyKey: string,
  tenant: string,
  options: { readonly boundary: string; readonly file: Uint8Array; readonly rowIds: ReadonlyArray<number> }
) => {
  const { boundary, file, rowIds } = options
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\nContent-Type: text/csv\r\n\r\n`
    ),
    file,
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="selections"\r\n\r\n${JSON.stringify(rowIds.map((rowId) => ({ rowId })))}\r\n--${boundary}--\r\n`
    )
  ])
  return Effect.flatMap(HttpClient.HttpClient, (http) =>
    http.execute(
      HttpClientRequest.post(`/tenants/${tenant}/contacts/import`).pipe(
        HttpClientRequest.setHeaders({ "x-api-key": apiKey, "idempotency-key": idempotencyKey }),
        HttpClientRequest.bodyUint8Array(body, `multipart/form-data; boundary=${boundary}`)
      )
    )
  ).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.json, (json) => ({
        status: response.status,
        replayed: response.headers["idempotent-replayed"],
        body: json as Record<string, any>
      }))
    )
  )
}

layer(e2e(SqlTestPorts), { timeout: "60 seconds" })("Idempotency-Key on the contact import (an upload)", (it) => {
  it.effect("a retry with the same key and form answers the first answer again and imports once", () =>
    Effect.gen(function* () {
      const { api, key, tenant } = yield* ownerOfNewTenant("importretry")
      const importAll = api.contactImport
        .importContacts({
          path: { tenant },
          payload: contactImportForm(csv, { rowIds: [1, 2, 3, 4] }),
          withResponse: true
        })
        .pipe(withIdempotencyKey(randomUUID()))
      const [first, firstResponse] = yield* importAll
      const [again, againResponse] = yield* importAll
      expect(firstResponse.status).toBe(201)
      expect(first.imported).toBe(4)
      expect(firstResponse.headers["idempotent-replayed"]).toBeUndefined()
      expect(againResponse.status).toBe(201)
      expect(againResponse.headers["idempotent-replayed"]).toBe("true")
      expect(again).toEqual(first)
      expect(yield* contactCount(key, tenant)).toBe(4)
    })
  )

  it.effect("the same form under another multipart boundary is the same request", () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* ownerOfNewTenant("boundaries")
      const idempotencyKey = randomUUID()
      const first = yield* keyedImport(key, idempotencyKey, tenant, {
        boundary: "first-boundary-1",
        file: csv,
        rowIds: [1, 2]
      })
      const again = yield* keyedImport(key, idempotencyKey, tenant, {
        boundary: "other-boundary-22",
        file: csv,
        rowIds: [1, 2]
      })
      expect(first.status).toBe(201)
      expect(again).toEqual({ ...first, replayed: "true" })
      expect(yield* contactCount(key, tenant)).toBe(2)
    })
  )

  describe("refusals", () => {
    it.effect("the same key with other rows chosen, or another file, is 409 and imports nothing more", () =>
      Effect.gen(function* () {
        const { api, key, tenant } = yield* ownerOfNewTenant("importmismatch")
        const idempotencyKey = randomUUID()
        const importRows = (file: Uint8Array, rowIds: ReadonlyArray<number>) =>
          api.contactImport
            .importContacts({ path: { tenant }, payload: contactImportForm(file, { rowIds }) })
            .pipe(withIdempotencyKey(idempotencyKey))
        yield* importRows(csv, [1])
        const otherRows = yield* Effect.flip(importRows(csv, [1, 2]))
        expect(otherRows._tag).toBe("Conflict")
        expect(otherRows).toMatchObject({ detail: expect.stringContaining("different request") })
        const otherFile = yield* Effect.flip(importRows(Buffer.concat([csv, Buffer.from("\r\n")]), [1]))
        expect(otherFile._tag).toBe("Conflict")
        expect(yield* contactCount(key, tenant)).toBe(1)
      })
    )

    it.effect("a blank key is 400 and imports nothing", () =>
      Effect.gen(function* () {
        const { key, tenant } = yield* ownerOfNewTenant("importbadkey")
        const res = yield* keyedImport(key, " ", tenant, { boundary: "b", file: csv, rowIds: [1] })
        expect(res.status).toBe(400)
        expect(res.body["detail"]).toContain("Idempotency-Key")
        expect(yield* contactCount(key, tenant)).toBe(0)
      })
    )
  })

  it.effect("two imports racing with one key import once; each gets the answer or a 409 to retry", () =>
    Effect.gen(function* () {
      const { key, tenant } = yield* ownerOfNewTenant("importrace")
      const idempotencyKey = randomUUID()
      const answers = yield* Effect.all(
        ["race-a", "race-b"].map((boundary) =>
          keyedImport(key, idempotencyKey, tenant, { boundary, file: csv, rowIds: [1, 2, 3, 4] })
        ),
        { concurrency: 2 }
      )
      expect(answers.map((a) => a.status).sort()).toEqual(expect.arrayContaining([201]))
      for (const answer of answers) expect([201, 409]).toContain(answer.status)
      expect(yield* contactCount(key, tenant)).toBe(4)
    })
  )
})
