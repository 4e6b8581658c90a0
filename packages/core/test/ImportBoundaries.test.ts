import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { conceptOf, importSpecifiers, isSurface, typeScriptFiles } from "./CoreLayout.js"

/**
 * Core's folders keep to the rule in docs/architecture.md ("Import boundaries"): a file of one
 * concept reaches another concept only through that concept's surface (the files directly in its
 * folder), the shared place (core's root) imports no concept, and no concept comes back to itself
 * through others. Each concept uses only the concepts listed for it in USES, and no concept
 * imports another's query module.
 */
const source = path.resolve(import.meta.dirname, "../src")

/** The root file that composes every use case: the one file of the shared place that imports concepts. */
const COMPOSITION = "UseCases.ts"

/**
 * The concepts each concept may use: a crossing to a concept not listed for it fails, so that a new
 * dependency between concepts is a decision seen in review (a concept reaching into another's query
 * module for its paging, say), not an accident. The list itself has no circle.
 */
const USES: Record<string, ReadonlyArray<string>> = {
  apikeys: ["system", "users"],
  authentication: ["apikeys", "users"],
  "billing/billinginvoices": ["billing/mandates", "mail", "system", "users"],
  "billing/mandates": ["cis", "system", "users"],
  "billing/providerevents": ["billing/billinginvoices", "billing/mandates", "mail", "system", "users"],
  cis: [],
  connections: ["cis", "contacts", "events", "mail", "system", "tenants", "users", "verification"],
  contacts: ["cis", "events", "system", "tenants"],
  credentials: ["contacts", "system", "tenants"],
  events: [],
  held: ["cis", "contacts", "credentials", "events", "returns", "taxauthority", "tenants", "verification"],
  idempotency: [],
  invoices: ["contacts", "events", "mail", "returns", "system", "tenants", "users"],
  mail: ["system", "tenants"],
  returns: [
    "cis",
    "connections",
    "contacts",
    "credentials",
    "events",
    "mail",
    "system",
    "taxauthority",
    "tenants",
    "users"
  ],
  statements: ["connections", "contacts", "events", "invoices", "returns", "system", "tenants"],
  system: [],
  taxauthority: ["cis", "contacts", "credentials"],
  tenants: ["cis", "system", "users"],
  users: ["system"],
  verification: ["cis", "contacts", "credentials", "events", "system", "taxauthority", "tenants"],
  webhooks: ["events", "system", "tenants"]
}

interface Import {
  /** Both relative to core's src, with `/` and `.ts`. */
  readonly from: string
  readonly to: string
}

const relative = (file: string) => path.relative(source, file).split(path.sep).join("/")

/** Every import of one of core's files by another, as written in the sources. */
const imports = (): ReadonlyArray<Import> =>
  typeScriptFiles(source).flatMap((file) =>
    importSpecifiers(file)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => ({
        from: relative(file),
        to: relative(path.resolve(path.dirname(file), specifier)).replace(/\.js$/, ".ts")
      }))
  )

const shown = (i: Import) => `${i.from} -> ${i.to}`

/** Imports that cross from one concept into another. */
const crossings = (all: ReadonlyArray<Import>) =>
  all.flatMap((i) => {
    const from = conceptOf(i.from)
    const to = conceptOf(i.to)
    return from !== null && to !== null && from !== to ? [{ ...i, fromConcept: from, toConcept: to }] : []
  })

/** Crossings to a concept not listed among those their concept uses. */
const unlisted = (crossing: ReturnType<typeof crossings>) =>
  crossing.filter((c) => !(USES[c.fromConcept] ?? []).includes(c.toConcept))

/**
 * Crossings into another concept's query module (`ContactQuery.ts`, `DeliveryQuery.ts`): how a
 * concept's own listing is asked for; the paging every listing shares is in the shared place
 * (`Paging.ts`).
 */
const intoQueries = (crossing: ReturnType<typeof crossings>) => crossing.filter((c) => c.to.endsWith("Query.ts"))

/** A circle of concepts, as the imports that close it; undefined when there is none. */
const circleOf = (crossing: ReturnType<typeof crossings>): ReadonlyArray<string> | undefined => {
  const next = new Map<string, Map<string, string>>()
  for (const c of crossing) {
    const out = next.get(c.fromConcept) ?? new Map<string, string>()
    if (!out.has(c.toConcept)) out.set(c.toConcept, shown(c))
    next.set(c.fromConcept, out)
  }
  const done = new Set<string>()
  const trail: Array<string> = []
  const onPath: Array<string> = []
  const visit = (concept: string): ReadonlyArray<string> | undefined => {
    const at = onPath.indexOf(concept)
    if (at >= 0) return trail.slice(at)
    if (done.has(concept)) return undefined
    onPath.push(concept)
    for (const [to, via] of next.get(concept) ?? []) {
      trail.push(via)
      const found = visit(to)
      if (found) return found
      trail.pop()
    }
    onPath.pop()
    done.add(concept)
    return undefined
  }
  for (const concept of next.keys()) {
    const found = visit(concept)
    if (found) return found
  }
  return undefined
}

describe("core's import boundaries", () => {
  const all = imports()
  const crossing = crossings(all)

  it("a concept reaches another only through the files directly in its folder, never into its subfolders", () => {
    expect(crossing.filter((c) => !isSurface(c.to, c.toConcept)).map(shown)).toEqual([])
  })

  it("the shared place (core's root) imports no concept; only UseCases.ts composes them", () => {
    const reaching = all.filter((i) => conceptOf(i.from) === null && i.from !== COMPOSITION && conceptOf(i.to) !== null)
    expect(reaching.map(shown)).toEqual([])
  })

  it("no concept comes back to itself through other concepts", () => {
    expect(circleOf(crossing)).toBeUndefined()
  })

  it("a concept uses only the concepts listed for it", () => {
    expect(unlisted(crossing).map(shown)).toEqual([])
  })

  it("the concepts' list of uses has no circle", () => {
    const listed = Object.entries(USES).flatMap(([from, uses]) =>
      uses.map((to) => ({ from: `${from}/Listed.ts`, to: `${to}/Listed.ts` }))
    )
    expect(circleOf(crossings(listed))).toBeUndefined()
  })

  it("a concept never imports another concept's query module", () => {
    expect(intoQueries(crossing).map(shown)).toEqual([])
  })

  it("sees a concept that takes its paging from another concept's query module", () => {
    const made = crossings([{ from: "webhooks/DeliveryQuery.ts", to: "contacts/ContactQuery.ts" }])
    expect(unlisted(made).map(shown)).toEqual(["webhooks/DeliveryQuery.ts -> contacts/ContactQuery.ts"])
    expect(intoQueries(made).map(shown)).toEqual(["webhooks/DeliveryQuery.ts -> contacts/ContactQuery.ts"])
  })

  it("sees the circle that Money in invoices/ made with returns/", () => {
    const made = crossings([
      { from: "returns/ReturnInput.ts", to: "invoices/Money.ts" },
      { from: "invoices/SalesInvoiceMail.ts", to: "returns/TaxMonth.ts" }
    ])
    expect(circleOf(made)).toEqual([
      "returns/ReturnInput.ts -> invoices/Money.ts",
      "invoices/SalesInvoiceMail.ts -> returns/TaxMonth.ts"
    ])
  })
})
