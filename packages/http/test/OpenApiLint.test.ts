import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { CisbookServerApi } from "../src/api/ServerApi.js"
import { typeFor } from "../src/problems/ProblemResponse.js"

interface LintProblem {
  readonly ruleId: string
  readonly severity: "error" | "warn"
  readonly message: string
}

const redocly = path.resolve(import.meta.dirname, "../node_modules/.bin/redocly")

/** Runs `redocly lint` with its recommended rules on `document`; its JSON report's problems. */
const lint = async (document: unknown): Promise<ReadonlyArray<LintProblem>> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cisbook-openapi-"))
  try {
    const file = path.join(dir, "openapi.json")
    fs.writeFileSync(file, JSON.stringify(document))
    const run = await promisify(execFile)(redocly, ["lint", file, "--format=json", "--extends=recommended"], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
    }).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? "" }))
    return (JSON.parse(run.stdout) as { problems: ReadonlyArray<LintProblem> }).problems
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** True when the schema, or a member, item or variant of it (through references), carries an example. */
const hasExample = (document: any, schema: any, depth = 0): boolean => {
  const resolved = schema?.$ref ? document.components.schemas[schema.$ref.split("/").at(-1)] : schema
  if (resolved === undefined || depth > 4) return false
  if (resolved.examples !== undefined || resolved.example !== undefined) return true
  const parts = [
    resolved.items,
    ...Object.values(resolved.properties ?? {}),
    ...(resolved.anyOf ?? []),
    ...(resolved.oneOf ?? []),
    ...(resolved.allOf ?? [])
  ]
  return parts.some((part) => part !== undefined && hasExample(document, part, depth + 1))
}

describe("the OpenAPI document", () => {
  it("passes redocly's recommended rules without an error", async () => {
    const problems = await lint(OpenApi.fromApi(CisbookServerApi))
    expect(problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`)).toEqual([])
  })

  it("gives every operation a summary and a description, every tag a description, and names its servers", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const operations = [...Object.values(document.paths), ...Object.values(document.webhooks)].flatMap(
      (item: any) => Object.values(item) as Array<any>
    )
    expect(operations.filter((o) => !o.summary || !o.description).map((o) => o.operationId)).toEqual([])
    expect(document.tags.filter((t: any) => !t.description).map((t: any) => t.name)).toEqual([])
    expect(document.servers.length).toBeGreaterThan(0)
  })

  it("documents the Idempotency-Key header on every POST but the import's analysis, which creates nothing, and GoCardless's webhook, deduplicated on its event ids", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const postsWithoutKey = Object.entries(document.paths)
      .filter(([, item]: [string, any]) => item.post !== undefined)
      .filter(
        ([, item]: [string, any]) =>
          !(item.post.parameters ?? []).some((p: any) => p.in === "header" && p.name === "Idempotency-Key")
      )
      .map(([path]) => path)
    expect(postsWithoutKey).toEqual(["/tenants/{tenant}/contacts/import/analyze", "/webhooks/gocardless"])
  })

  it("documents GoCardless's webhook: no credentials but its signature header, its body, 204, 400, 413, 415, 498 and 503", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const operation = document.paths["/webhooks/gocardless"].post
    expect(operation.security ?? []).toEqual([])
    expect(operation.parameters).toEqual([
      expect.objectContaining({ name: "webhook-signature", in: "header", required: false })
    ])
    expect(operation.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/GoCardlessWebhook"
    })
    expect(Object.keys(operation.responses).sort()).toEqual(["204", "400", "413", "415", "498", "503"])
    expect(JSON.stringify(operation.responses["498"].content["application/problem+json"].schema)).toContain(
      "#/components/schemas/InvalidSignatureProblem"
    )
    expect(document.components.schemas.GoCardlessWebhook.examples).toHaveLength(1)
  })

  it("gives every JSON request body and success answer of every operation and webhook an example", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const withoutExamples = Object.entries({ ...document.paths, ...document.webhooks }).flatMap(
      ([path, item]: [string, any]) =>
        Object.entries(item).flatMap(([method, operation]: [string, any]) => {
          const bodies = [
            ["request", operation.requestBody?.content?.["application/json"]?.schema],
            ...Object.entries(operation.responses ?? {})
              .filter(([status]) => status.startsWith("2"))
              .map(([status, answer]: [string, any]) => [status, answer.content?.["application/json"]?.schema])
          ]
          return bodies
            .filter(([, schema]) => schema !== undefined && !hasExample(document, schema))
            .map(([body]) => `${method.toUpperCase()} ${path} ${body}`)
        })
    )
    expect(withoutExamples).toEqual([])
  })

  const operationsOf = (document: any) =>
    Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item).map(([method, operation]: [string, any]) => ({
        name: `${method.toUpperCase()} ${path}`,
        operation
      }))
    )

  it("lists 413 on every operation that takes a JSON body, and 503 (with Retry-After) on /health", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const jsonBodies = operationsOf(document).filter(
      ({ operation }) => operation.requestBody?.content?.["application/json"]
    )
    expect(jsonBodies.length).toBeGreaterThan(20)
    expect(
      jsonBodies
        .filter(({ operation }) => operation.responses["413"]?.content?.["application/problem+json"] === undefined)
        .map(({ name }) => name)
    ).toEqual([])
    const starting = document.paths["/health"].get.responses["503"]
    expect(starting.content["application/problem+json"]).toBeDefined()
    expect(starting.headers["Retry-After"]).toBeDefined()
  })

  it("lists 502 and 503 with Retry-After on every operation that asks GoCardless", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    for (const [path, method] of [
      ["/me/billing/mandate-setups", "post"],
      ["/me/billing/mandate", "put"],
      ["/me/billing/mandate", "get"],
      ["/me/billing/mandate", "delete"]
    ] as const) {
      const responses = document.paths[path][method].responses
      expect(responses["502"].content["application/problem+json"]).toBeDefined()
      expect(responses["503"].content["application/problem+json"]).toBeDefined()
      expect(responses["503"].headers["Retry-After"]).toBeDefined()
    }
    expect(document.paths["/me/billing/mandate"].get.responses["503"].description).toMatch(/provider.*database/)
  })

  it("lists 503 with Retry-After on every operation but the health checks, for a database busy just now", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const operations = operationsOf(document).filter(({ name }) => !/ \/health(\/ready)?$/.test(name))
    expect(operations.length).toBeGreaterThan(50)
    expect(
      operations
        .filter(({ operation }) => operation.responses["503"]?.headers?.["Retry-After"] === undefined)
        .map(({ name }) => name)
    ).toEqual([])
    const busy = document.paths["/me/billing/profile"].get.responses["503"]
    expect(busy.description).toMatch(/database/)
    const schema = busy.content["application/problem+json"].schema
    expect(schema.properties.retryAfter.type).toBe("integer")
    expect(schema.examples[0]).toMatchObject({ type: typeFor(503), status: 503, retryAfter: 2 })
    expect(document.paths["/health/ready"].get.responses["503"].description).not.toMatch(/just now/)
  })

  it("lists 415 on every operation that takes a body, with Accept-Post on a POST", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const withBodies = operationsOf(document).filter(({ operation }) => operation.requestBody !== undefined)
    expect(withBodies.length).toBeGreaterThan(20)
    expect(
      withBodies
        .filter(({ operation }) => operation.responses["415"]?.content?.["application/problem+json"] === undefined)
        .map(({ name }) => name)
    ).toEqual([])
    const posts = withBodies.filter(({ name }) => name.startsWith("POST "))
    expect(posts.filter(({ operation }) => !operation.responses["415"].headers?.["Accept-Post"])).toEqual([])
  })

  it("declares Content-Disposition on every file answer, and Idempotent-Replayed on every answer a retry may get again", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const fileAnswers = operationsOf(document).flatMap(({ name, operation }) =>
      Object.entries(operation.responses)
        .filter(([, answer]: [string, any]) => answer.content?.["application/pdf"] ?? answer.content?.["text/csv"])
        .map(([status, answer]: [string, any]) => ({ name: `${name} ${status}`, answer }))
    )
    expect(fileAnswers.map(({ name }) => name).sort()).toEqual([
      "GET /me/billing/invoices/{invoice}/pdf 200",
      "GET /tenants/{tenant}/cis-statements/{id}/pdf 200",
      "GET /tenants/{tenant}/contacts/import/template 200",
      "GET /tenants/{tenant}/monthly-returns/{id}/statements/{contact}/pdf 200",
      "GET /tenants/{tenant}/sales-invoices/payments 200"
    ])
    expect(fileAnswers.filter(({ answer }) => answer.headers?.["Content-Disposition"] === undefined)).toEqual([])

    const keyed = operationsOf(document).filter(({ operation }) =>
      (operation.parameters ?? []).some((p: any) => p.name === "Idempotency-Key")
    )
    const unmarked = keyed.flatMap(({ name, operation }) =>
      Object.entries(operation.responses)
        .filter(([status]) => status.startsWith("2") || status === "404" || status === "409")
        .filter(([, answer]: [string, any]) => answer.headers?.["Idempotent-Replayed"] === undefined)
        .map(([status]) => `${name} ${status}`)
    )
    expect(unmarked).toEqual([])
    // A refusal before any work is never kept, so never replayed.
    expect(document.paths["/tenants"].post.responses["400"].headers?.["Idempotent-Replayed"]).toBeUndefined()
  })

  it("lets request bodies carry members the service ignores: no schema a request reaches says additionalProperties false", () => {
    const document = OpenApi.fromApi(CisbookServerApi) as any
    const closed: Array<string> = []
    const seen = new Set<unknown>()
    const visit = (schema: any, where: string): void => {
      if (typeof schema !== "object" || schema === null || seen.has(schema)) return
      seen.add(schema)
      if (typeof schema.$ref === "string") {
        const name = schema.$ref.split("/").at(-1)
        return visit(document.components.schemas[name], name)
      }
      if (schema.additionalProperties === false) closed.push(where)
      for (const value of Object.values(schema))
        (Array.isArray(value) ? value : [value]).forEach((v) => visit(v, where))
    }
    for (const { name, operation } of operationsOf(document)) {
      for (const media of Object.values(operation.requestBody?.content ?? {}) as Array<any>) visit(media.schema, name)
    }
    expect(seen.size).toBeGreaterThan(50)
    expect(closed).toEqual([])
  })
})
