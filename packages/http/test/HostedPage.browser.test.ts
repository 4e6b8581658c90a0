import { HttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { chromium, type Browser } from "playwright-core"
import { e2e, signUp, SqlTestPorts } from "./E2E.js"

const CHROMIUM = "/usr/bin/chromium"
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

const launch = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS })),
  (browser: Browser) => Effect.promise(() => browser.close())
)

layer(e2e(SqlTestPorts), { excludeTestServices: true, timeout: "120 seconds" })(
  "the sandbox's hosted page in a real browser",
  (it) => {
    it.scoped(
      "a person fills it in without JavaScript, sees an error for wrong details, and comes back to the success URL; the mandate then completes and activates",
      () =>
        Effect.gen(function* () {
          const { api } = yield* signUp("browser")
          yield* api.billing.updateBillingProfile({
            payload: {
              companyName: "Lovelace Builders Ltd",
              billingEmail: "accounts@lovelace.example",
              addressLine1: "1 Analytical Row",
              postcode: "NW1 6XE",
              country: "GB"
            }
          })
          // The success URL is the test server's own health page, so that the browser has somewhere to land.
          const health = yield* Effect.flatMap(HttpClient.HttpClient, (http) => http.get("/health"))
          const origin = new URL(health.request.url).origin
          const setup = yield* api.billing.createMandateSetup({
            payload: { successRedirectUrl: `${origin}/health?came=back` }
          })

          const browser = yield* launch
          const context = yield* Effect.promise(() => browser.newContext({ javaScriptEnabled: false }))
          const page = yield* Effect.promise(() => context.newPage())
          const landed = yield* Effect.promise(async () => {
            await page.goto(setup.redirectUrl)
            expect(await page.title()).toBe("Set up a Direct Debit")
            // Every input is reachable by its label, as a screen reader finds it.
            await page.getByLabel("Account holder name").fill("Ada Lovelace")
            await page.getByLabel(/^Sort code/).fill("20-00-00")
            await page.getByLabel(/^Account number/).fill("12345678")
            await page.getByRole("button", { name: "Set up Direct Debit" }).click()
            await page.waitForLoadState()
            const alert = page.getByRole("alert")
            expect(await alert.isVisible()).toBe(true)
            expect(await alert.textContent()).toMatch(/could not find this sort code and account number/)
            expect(await page.title()).toBe("Error: Set up a Direct Debit")

            await page.getByLabel("Account holder name").fill("Ada Lovelace")
            await page.getByLabel(/^Sort code/).fill("20 00 00")
            await page.getByLabel(/^Account number/).fill("55779911")
            await Promise.all([
              page.waitForURL((url) => url.searchParams.has("redirect_flow_id")),
              page.getByRole("button", { name: "Set up Direct Debit" }).click()
            ])
            return new URL(page.url())
          })
          expect(landed.pathname).toBe("/health")
          expect(landed.searchParams.get("came")).toBe("back")
          const redirectFlowId = landed.searchParams.get("redirect_flow_id") ?? ""
          expect(redirectFlowId).toBe(setup.redirectFlowId)

          const mandate = yield* api.billing.completeMandateSetup({
            payload: { redirectFlowId, sessionToken: setup.sessionToken }
          })
          expect(mandate).toMatchObject({
            status: "InProgress",
            accountHolderName: "Ada Lovelace",
            accountNumberEnding: "11"
          })
          const activated = yield* Effect.promise(() =>
            fetch(`${origin}/sandbox/gocardless/scenario_simulators/mandate_activated/actions/run`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ data: { links: { resource: mandate.reference } } })
            })
          )
          expect(activated.status).toBe(200)
          expect((yield* api.billing.getMandate()).status).toBe("Active")
        })
    )
  }
)
