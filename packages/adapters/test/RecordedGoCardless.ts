import type { MandateSetupStarted } from "@cisbook/core/billing/mandates/DirectDebit"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

type Json = Record<string, unknown>

/** One file of recorded answers (fixtures/gocardless), by the state its resource is in. */
const recorded = (file: string): Readonly<Record<string, Json>> =>
  JSON.parse(readFileSync(new URL(`./fixtures/gocardless/${file}.json`, import.meta.url), "utf8")) as Record<
    string,
    Json
  >

const requests = recorded("billing_requests")
const flows = recorded("billing_request_flows")
const mandates = recorded("mandates")
const accounts = recorded("customer_bank_accounts")
const payments = recorded("payments")
const errors = recorded("errors") as Readonly<Record<string, { readonly status: number; readonly body: Json }>>

const links = (answer: Json) => answer["links"] as Json

interface Setup {
  status: "pending" | "fulfilled" | "cancelled"
  mandate: string | null
  account: string | null
}

interface Reply {
  readonly status: number
  readonly body: unknown
}

/**
 * GoCardless as its recorded answers show it, for the adapter to talk to: each answer is a
 * recorded one, with the ids of the resources this replay made (a real account's ids would
 * differ too). State moves as GoCardless's does: a setup is fulfilled when its customer finishes
 * the page (`finishPage`), a cancelled mandate takes its pending payments with it, a create
 * repeated under its key answers 409 naming the first.
 */
export const recordedGoCardless = Effect.acquireRelease(
  Effect.promise(async () => {
    let created = 0
    const idOf = (prefix: string) => `${prefix}${String(++created).padStart(10, "0")}`
    const setups = new Map<string, Setup>()
    const mandateStatus = new Map<string, string>()
    const paymentsMade = new Map<string, { status: string; amount: number; mandate: string; description: string }>()
    const keys = new Map<string, string>()

    const error = (name: string, conflicting?: string): Reply => {
      const { body, status } = errors[name]!
      if (conflicting === undefined) return { status, body }
      const detail = ((body["error"] as Json)["errors"] as Array<Json>)[0]!
      return {
        status,
        body: {
          error: {
            ...(body["error"] as Json),
            errors: [{ ...detail, links: { conflicting_resource_id: conflicting } }]
          }
        }
      }
    }

    const requestAnswer = (id: string, setup: Setup, metadata: unknown) => {
      const answer = requests[setup.status]!
      return {
        billing_requests: {
          ...answer,
          id,
          metadata: metadata ?? answer["metadata"],
          links:
            setup.status === "fulfilled"
              ? { ...links(answer), mandate_request_mandate: setup.mandate, customer_bank_account: setup.account }
              : links(answer)
        }
      }
    }
    const mandateAnswer = (id: string) => {
      const status = mandateStatus.get(id)!
      const answer = status === "cancelled" ? mandates["cancelled"]! : mandates["pending_submission"]!
      const account = [...setups.values()].find((s) => s.mandate === id)?.account
      return { mandates: { ...answer, id, status, links: { ...links(answer), customer_bank_account: account } } }
    }
    const paymentAnswer = (id: string) => {
      const made = paymentsMade.get(id)!
      const answer = payments[made.status === "cancelled" ? "cancelled" : "pending_submission"]!
      return {
        ...answer,
        id,
        status: made.status,
        amount: made.amount,
        description: made.description,
        links: { ...links(answer), mandate: made.mandate }
      }
    }

    /** A create under an idempotency key: 409 naming the first resource when the key was used. */
    const once = (kind: string, key: string | undefined, make: () => string): string | Reply => {
      const earlier = key === undefined ? undefined : keys.get(`${kind}:${key}`)
      if (earlier !== undefined) return error("idempotent_creation_conflict", earlier)
      const id = make()
      if (key !== undefined) keys.set(`${kind}:${key}`, id)
      return id
    }

    const answer = (method: string, url: URL, body: Json, key: string | undefined): Reply => {
      const [, resource, id, , action] = url.pathname.split("/")
      const route = `${method} /${resource}${id === undefined ? "" : "/:id"}${action === undefined ? "" : `/${action}`}`
      switch (route) {
        case "POST /billing_requests": {
          const made = once("billing_requests", key, () => {
            const brq = idOf("BRQ")
            setups.set(brq, { status: "pending", mandate: null, account: null })
            return brq
          })
          if (typeof made !== "string") return made
          const sent = body["billing_requests"] as Json
          return { status: 201, body: requestAnswer(made, setups.get(made)!, sent["metadata"]) }
        }
        case "GET /billing_requests/:id": {
          const setup = setups.get(id!)
          return setup === undefined
            ? error("resource_not_found")
            : { status: 200, body: requestAnswer(id!, setup, undefined) }
        }
        case "POST /billing_requests/:id/cancel": {
          const setup = setups.get(id!)
          if (setup === undefined) return error("resource_not_found")
          if (setup.status !== "pending") return error("billing_request_not_cancellable")
          setup.status = "cancelled"
          return { status: 200, body: requestAnswer(id!, setup, undefined) }
        }
        case "POST /billing_request_flows": {
          const sent = body["billing_request_flows"] as Json
          const email = String((sent["prefilled_customer"] as Json | undefined)?.["email"] ?? "")
          // GoCardless refuses an address it cannot deliver to; the contract's refused address stands for one.
          if (/^refuse/.test(email)) return error("email_invalid")
          const brq = String((sent["links"] as Json)["billing_request"])
          if (!setups.has(brq)) return error("resource_not_found")
          const brf = idOf("BRF")
          const flow = flows["created"]!
          return {
            status: 201,
            body: {
              billing_request_flows: {
                ...flow,
                id: brf,
                authorisation_url: `https://pay-sandbox.gocardless.com/billing/static/flow?id=${brf}`,
                redirect_uri: sent["redirect_uri"],
                exit_uri: sent["exit_uri"],
                links: { billing_request: brq }
              }
            }
          }
        }
        case "GET /mandates/:id":
          return mandateStatus.has(id!) ? { status: 200, body: mandateAnswer(id!) } : error("resource_not_found")
        case "POST /mandates/:id/cancel": {
          if (!mandateStatus.has(id!)) return error("resource_not_found")
          if (mandateStatus.get(id!) === "cancelled") return error("cancellation_failed")
          mandateStatus.set(id!, "cancelled")
          for (const payment of paymentsMade.values()) {
            if (payment.mandate === id && payment.status === "pending_submission") payment.status = "cancelled"
          }
          return { status: 200, body: mandateAnswer(id!) }
        }
        case "GET /customer_bank_accounts/:id":
          return [...setups.values()].some((s) => s.account === id)
            ? { status: 200, body: { customer_bank_accounts: { ...accounts["enabled"]!, id } } }
            : error("resource_not_found")
        case "POST /payments": {
          const sent = body["payments"] as Json
          const made = once("payments", key, () => {
            const pm = idOf("PM")
            paymentsMade.set(pm, {
              status: "pending_submission",
              amount: Number(sent["amount"]),
              mandate: String((sent["links"] as Json)["mandate"]),
              description: String(sent["description"])
            })
            return pm
          })
          return typeof made === "string" ? { status: 201, body: { payments: paymentAnswer(made) } } : made
        }
        case "GET /payments/:id":
          return paymentsMade.has(id!)
            ? { status: 200, body: { payments: paymentAnswer(id!) } }
            : error("resource_not_found")
        case "GET /payments": {
          const mandate = url.searchParams.get("mandate")
          const listed = [...paymentsMade.entries()].filter(([, p]) => p.mandate === mandate).reverse()
          return {
            status: 200,
            body: {
              payments: listed.map(([pm]) => paymentAnswer(pm)),
              meta: { cursors: { before: null, after: null }, limit: Number(url.searchParams.get("limit") ?? 50) }
            }
          }
        }
        default:
          return error("resource_not_found")
      }
    }

    const server = createServer((req, res) => {
      let text = ""
      req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://recorded")
        const key = req.headers["idempotency-key"]
        const reply = answer(
          req.method ?? "GET",
          url,
          text === "" ? {} : (JSON.parse(text) as Json),
          typeof key === "string" ? key : undefined
        )
        res.writeHead(reply.status, { "content-type": "application/json" })
        res.end(JSON.stringify(reply.body))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))

    /** The customer finished the flow's page: GoCardless fulfils the request (its flows fulfil by themselves). */
    const finishPage = (setup: MandateSetupStarted) =>
      Effect.sync(() => {
        const found = setups.get(setup.id)
        if (found === undefined || found.status !== "pending") return
        found.status = "fulfilled"
        found.mandate = idOf("MD")
        found.account = idOf("BA")
        mandateStatus.set(found.mandate, "pending_submission")
      })

    return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, finishPage }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)
