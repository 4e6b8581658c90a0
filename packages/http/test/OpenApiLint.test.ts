import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { CisbookApi } from "@cisbook/sdk/Api"
import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "vitest"

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
    const problems = await lint(OpenApi.fromApi(CisbookApi))
    expect(problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`)).toEqual([])
  })

  it("gives every operation a summary and a description, every tag a description, and names its servers", () => {
    const document = OpenApi.fromApi(CisbookApi) as any
    const operations = [...Object.values(document.paths), ...Object.values(document.webhooks)].flatMap(
      (item: any) => Object.values(item) as Array<any>
    )
    expect(operations.filter((o) => !o.summary || !o.description).map((o) => o.operationId)).toEqual([])
    expect(document.tags.filter((t: any) => !t.description).map((t: any) => t.name)).toEqual([])
    expect(document.servers.length).toBeGreaterThan(0)
  })

  it("documents the Idempotency-Key header on every POST but the import's analysis, which creates nothing, and GoCardless's webhook, deduplicated on its event ids", () => {
    const document = OpenApi.fromApi(CisbookApi) as any
    const postsWithoutKey = Object.entries(document.paths)
      .filter(([, item]: [string, any]) => item.post !== undefined)
      .filter(
        ([, item]: [string, any]) =>
          !(item.post.parameters ?? []).some((p: any) => p.in === "header" && p.name === "Idempotency-Key")
      )
      .map(([path]) => path)
    expect(postsWithoutKey).toEqual(["/tenants/{tenant}/contacts/import/analyze", "/webhooks/gocardless"])
  })

  it("documents GoCardless's webhook: no credentials but its signature header, its body, 204, 400, 413 and 498", () => {
    const document = OpenApi.fromApi(CisbookApi) as any
    const operation = document.paths["/webhooks/gocardless"].post
    expect(operation.security ?? []).toEqual([])
    expect(operation.parameters).toEqual([
      expect.objectContaining({ name: "webhook-signature", in: "header", required: false })
    ])
    expect(operation.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/GoCardlessWebhook"
    })
    expect(Object.keys(operation.responses).sort()).toEqual(["204", "400", "413", "498"])
    expect(JSON.stringify(operation.responses["498"].content["application/problem+json"].schema)).toContain(
      "#/components/schemas/InvalidSignatureProblem"
    )
    expect(document.components.schemas.GoCardlessWebhook.examples).toHaveLength(1)
  })

  it("gives every JSON request body and success answer of every operation and webhook an example", () => {
    const document = OpenApi.fromApi(CisbookApi) as any
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
})
