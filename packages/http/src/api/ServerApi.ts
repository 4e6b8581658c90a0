import { everyAccessDeclared } from "@cisbook/sdk/Access"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApi, OpenApi } from "@effect/platform"
import { withMediaTypes } from "../problems/AcceptedMediaTypesOpenApi.js"
import { withContentDisposition } from "../handlers/ContentDispositionOpenApi.js"
import { withIdempotencyKeys, withIdempotentReplayed } from "../middleware/IdempotencyOpenApi.js"
import type { Json } from "./OpenApiPaths.js"
import { withOpenRequestBodies } from "./OpenRequestBodiesOpenApi.js"
import {
  withBodyLimit,
  withProviderFaults,
  withStoreBusy,
  withValidationProblems
} from "../problems/ProblemDetailsOpenApi.js"
import { ProviderEventsApi } from "./ProviderEventsApi.js"
import { withRetryAfter } from "../middleware/RateLimitsOpenApi.js"
import { withStartingHealth } from "../transport/StartingOpenApi.js"
import { withWebhooks } from "../workers/WebhookDeliveriesOpenApi.js"

/**
 * What the server adds to the generated document: each change is written beside the part of
 * the server it describes (the idempotency middleware's headers, the problem middleware's
 * answers, ...).
 */
const completeDocument = (spec: Json): Json =>
  withWebhooks(
    withOpenRequestBodies(
      withIdempotentReplayed(
        withContentDisposition(
          withStartingHealth(
            withStoreBusy(
              withProviderFaults(
                withMediaTypes(withBodyLimit(withRetryAfter(withIdempotencyKeys(withValidationProblems(spec)))))
              )
            )
          )
        )
      )
    )
  )

/**
 * The server's contract: the client's (the SDK's CisbookApi, which its handlers implement) and
 * the endpoints only the server has (what GoCardless calls), with the document it serves at
 * /openapi.json and /docs.
 */
export class CisbookServerApi extends everyAccessDeclared(
  HttpApi.make("cisbook").addHttpApi(CisbookApi).add(ProviderEventsApi)
)
  .annotate(OpenApi.Title, "cisbook API")
  .annotate(OpenApi.Version, "v1")
  .annotate(
    OpenApi.Description,
    "The service behind a UK construction-industry tax (CIS) bookkeeping application. Errors are RFC 9457 problem details."
  )
  .annotate(OpenApi.Servers, [
    { url: "/", description: "The server that serves this document" },
    { url: "http://localhost:3000", description: "A server started with pnpm start on this machine" }
  ])
  .annotate(OpenApi.Transform, completeDocument) {}
