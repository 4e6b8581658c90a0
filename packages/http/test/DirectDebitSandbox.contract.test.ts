import { goCardlessDirectDebit } from "@cisbook/adapters/gocardless/GoCardlessDirectDebit"
import { SANDBOX_PATH } from "@cisbook/adapters/gocardless/SandboxPath"
import { DirectDebitDriver } from "@cisbook/testkit/DirectDebitDriver"
import { directDebitContract } from "@cisbook/testkit/contracts/DirectDebitContract"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { e2e, SqlTestPorts } from "./E2E.js"

/** The GoCardless adapter, pointed at the sandbox the test server serves. */
const Adapter = Layer.unwrapEffect(
  HttpServer.addressWith((address) =>
    Effect.succeed(
      goCardlessDirectDebit({
        baseUrl: `${HttpServer.formatAddress(address)}${SANDBOX_PATH}`,
        accessToken: Redacted.make("sandbox")
      })
    )
  )
)

/** The scenario simulator run on a resource, as GoCardless's sandbox offers it. */
const simulate = (http: HttpClient.HttpClient, scenario: string, resource: string) =>
  http
    .execute(
      HttpClientRequest.post(`${SANDBOX_PATH}/scenario_simulators/${scenario}/actions/run`).pipe(
        HttpClientRequest.bodyUnsafeJson({ data: { links: { resource } } })
      )
    )
    .pipe(
      Effect.filterOrDieMessage((response) => response.status === 200, `The ${scenario} scenario did not run`),
      Effect.scoped,
      Effect.orDie,
      Effect.asVoid
    )

/**
 * The customer posts the sandbox's hosted page with its test bank account, as a browser does;
 * the bank's refusal of a payment is the sandbox's payment_failed scenario.
 */
const Driver = Layer.effect(
  DirectDebitDriver,
  Effect.map(HttpClient.HttpClient, (http) =>
    DirectDebitDriver.of({
      failPayment: (paymentId) => simulate(http, "payment_failed", paymentId),
      finishPage: (setup) =>
        http
          .execute(
            HttpClientRequest.post(new URL(setup.redirectUrl).pathname).pipe(
              HttpClientRequest.bodyUrlParams({
                account_holder_name: "Ada Lovelace",
                sort_code: "20-00-00",
                account_number: "55779911"
              })
            )
          )
          .pipe(
            Effect.filterOrDieMessage(
              (response) => response.status === 303,
              "The hosted page did not send the customer on"
            ),
            Effect.scoped,
            Effect.orDie,
            Effect.asVoid
          )
    })
  )
)

directDebitContract(
  "the GoCardless adapter over the service's sandbox",
  Layer.mergeAll(Adapter, Driver).pipe(Layer.provide(e2e(SqlTestPorts)))
)
