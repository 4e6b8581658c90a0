export {}

const benchmarks: Record<string, () => Promise<unknown>> = {
  contacts: () => import("./contacts/ContactsBench.js").then((m) => m.main()),
  invoices: () => import("./invoices/InvoicesBench.js").then((m) => m.main()),
  import: () => import("./import/ImportBench.js").then((m) => m.main()),
  webhooks: () => import("./webhooks/WebhooksBench.js").then((m) => m.main()),
  mail: () => import("./mail/MailBench.js").then((m) => m.main()),
  billing: () => import("./billing/BillingBench.js").then((m) => m.main()),
  startup: () => import("./startup/StartupBench.js").then((m) => m.main()),
  schemas: () => import("./schemas/SchemasBench.js").then((m) => m.main()),
  obligations: () => import("./obligations/ObligationsBench.js").then((m) => m.main()),
  draft: () => import("./draft/DraftBench.js").then((m) => m.main())
}

const name = process.argv[2]
const bench = name === undefined ? undefined : benchmarks[name]
if (bench === undefined) {
  console.error(`Usage: pnpm bench <${Object.keys(benchmarks).join("|")}>`)
  process.exit(2)
}
await bench()
