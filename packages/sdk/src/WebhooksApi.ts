import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ConflictProblem, NotFoundProblem, RefusedProblem, ValidationProblem } from "./Problem.js"
import { tenantParam } from "./TenantsApi.js"
import {
  CreatedWebhookDto,
  CreateWebhookRequest,
  DeliveryListParams,
  ReplaceWebhookRequest,
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookDeliveryPagedResult,
  WebhookDto,
  WebhookSecretDto
} from "./WebhookDtos.js"
import { forTenantMembersOrNotFound } from "./Access.js"

const webhookParam = HttpApiSchema.param("webhook", Schema.String)
const deliveryParam = HttpApiSchema.param("delivery", Schema.String)

const destination =
  "The URL must be https (plain http only where the service runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true) and must not lead to a loopback, private, link-local, carrier-grade NAT or IPv6 local address (400 naming url); every delivery checks again where it leads."

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("listWebhooks")`/tenants/${tenantParam}/webhooks`
      .addSuccess(Schema.Array(WebhookDto))
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "The tenant's webhooks, oldest first")
      .annotate(OpenApi.Description, "Each webhook's url, event types and enabled flag; never its secret.")
  )
  .add(
    HttpApiEndpoint.post("createWebhook")`/tenants/${tenantParam}/webhooks`
      .setPayload(CreateWebhookRequest)
      .addSuccess(CreatedWebhookDto, { status: 201 })
      .addError(ConflictProblem)
      .addError(ValidationProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Create a webhook; its signing secret is returned this once")
      .annotate(
        OpenApi.Description,
        `Events of the kinds in eventTypes (empty: every kind) are delivered to it while it is enabled, signed per Standard Webhooks with the secret. ${destination}`
      )
  )
  .add(
    HttpApiEndpoint.get("getWebhook")`/tenants/${tenantParam}/webhooks/${webhookParam}`
      .addSuccess(WebhookDto)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One webhook")
      .annotate(OpenApi.Description, "Its url, description, event types and enabled flag; never its secret.")
  )
  .add(
    HttpApiEndpoint.put("replaceWebhook")`/tenants/${tenantParam}/webhooks/${webhookParam}`
      .setPayload(ReplaceWebhookRequest)
      .addSuccess(WebhookDto)
      .addError(ValidationProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Replace a webhook's url, description, event types and enabled flag")
      .annotate(
        OpenApi.Description,
        `Deliveries already queued go to the new URL. A disabled webhook's deliveries wait until it is enabled. ${destination}`
      )
  )
  .add(
    HttpApiEndpoint.del("deleteWebhook")`/tenants/${tenantParam}/webhooks/${webhookParam}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Delete a webhook and its deliveries")
      .annotate(OpenApi.Description, "Deliveries not yet sent are dropped with it.")
  )
  .add(
    HttpApiEndpoint.post("rotateWebhookSecret")`/tenants/${tenantParam}/webhooks/${webhookParam}/rotate-secret`
      .addSuccess(WebhookSecretDto)
      .addError(ConflictProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Replace a webhook's signing secret; the new one is returned this once")
      .annotate(
        OpenApi.Description,
        "Every attempt from now on, retries included, is signed with the new secret, and for 24 hours with the old one too: `webhook-signature` then carries two space-separated `v1,` signatures, so a receiver verifies with either while it switches. A second rotation within the 24 hours drops the oldest secret."
      )
  )
  .add(
    HttpApiEndpoint.post("testWebhook")`/tenants/${tenantParam}/webhooks/${webhookParam}/test`
      .addSuccess(WebhookDeliveryDto, { status: 202 })
      .addError(ConflictProblem)
      .addError(RefusedProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Queue a test.webhook delivery to this webhook")
      .annotate(
        OpenApi.Description,
        "Answers 202 with the queued delivery, still Pending; a dispatcher sends it within moments. 400 when the webhook is disabled."
      )
  )
  .add(
    HttpApiEndpoint.get("listWebhookDeliveries")`/tenants/${tenantParam}/webhooks/${webhookParam}/deliveries`
      .setUrlParams(DeliveryListParams)
      .addSuccess(WebhookDeliveryPagedResult)
      .addError(ValidationProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "A page of the webhook's deliveries, newest first")
      .annotate(
        OpenApi.Description,
        "status filters; offset and limit choose the page. Each delivery with its status, attempts, next attempt time and the latest answer's status."
      )
  )
  .add(
    HttpApiEndpoint.get("getWebhookDelivery")`/tenants/${tenantParam}/webhooks/deliveries/${deliveryParam}`
      .addSuccess(WebhookDeliveryDetailDto)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "One delivery, with the receiver's answer and every attempt")
      .annotate(OpenApi.Description, "The receiver's status and the first 4 KiB of its answer, for every attempt.")
  )
  .add(
    HttpApiEndpoint.post("retryWebhookDelivery")`/tenants/${tenantParam}/webhooks/deliveries/${deliveryParam}/retry`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(ConflictProblem)
      .addError(RefusedProblem)
      .addError(NotFoundProblem)
      .annotate(OpenApi.Summary, "Send a failed delivery once more")
      .annotate(
        OpenApi.Description,
        "The delivery becomes Pending and a dispatcher sends it at once, with the same webhook-id; the automatic retries (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each failed attempt) stay as they were. 400 when the delivery is not Failed, is being sent right now, or its webhook is disabled."
      )
  )
  .annotate(OpenApi.Title, "Webhooks")
  .annotate(
    OpenApi.Description,
    "A caller who is not a member of the tenant is answered 404, as for a tenant that does not exist."
  )
  .pipe(forTenantMembersOrNotFound) {}
