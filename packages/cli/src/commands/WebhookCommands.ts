import { WebhookDeliveries } from "@cisbook/core/webhooks/WebhookDeliveries"
import { Webhooks } from "@cisbook/core/webhooks/Webhooks"
import { DeliveryStatus } from "@cisbook/core/webhooks/WebhookDelivery"
import { Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { admin } from "../Admin.js"
import { asSupport } from "@cisbook/core/tenants/ActingFor"
import { TenantsLive, WebhookDeliveriesLive, WebhooksLive } from "../AdminUseCases.js"
import { table } from "../Table.js"

const tenantOption = Options.text("tenant").pipe(Options.withDescription("The tenant's code"))
const instant = (at: Date | null) => at?.toISOString() ?? ""

const list = Command.make("list", { tenant: tenantOption }, ({ tenant }) =>
  admin(
    [TenantsLive, WebhooksLive],
    Effect.gen(function* () {
      const webhooks = yield* (yield* Webhooks).list().pipe(asSupport(tenant))
      if (webhooks.length === 0) return yield* Console.log(`${tenant} has no webhooks.`)
      yield* Console.log(
        table(
          ["ID", "URL", "EVENTS", "ENABLED", "CREATED"],
          webhooks.map((w) => [
            w.id,
            w.url,
            w.eventTypes.length === 0 ? "all" : w.eventTypes.join(","),
            w.enabled ? "yes" : "no",
            instant(w.createdAt)
          ])
        )
      )
    })
  )
).pipe(Command.withDescription("List a tenant's webhooks"))

const test = Command.make(
  "test",
  { tenant: tenantOption, webhook: Options.text("webhook").pipe(Options.withDescription("The webhook's id")) },
  ({ tenant, webhook }) =>
    admin(
      [TenantsLive, WebhooksLive],
      Effect.gen(function* () {
        const delivery = yield* (yield* Webhooks).test(webhook).pipe(asSupport(tenant))
        yield* Console.log(
          `Queued a test.webhook delivery ${delivery.id} (${delivery.status}); a running server's dispatcher sends it.`
        )
      })
    )
).pipe(Command.withDescription("Queue a test.webhook delivery to a webhook"))

const deliveries = Command.make(
  "deliveries",
  {
    tenant: tenantOption,
    status: Options.choice("status", DeliveryStatus.literals).pipe(
      Options.optional,
      Options.withDescription("Only deliveries in this status")
    ),
    limit: Options.integer("limit").pipe(Options.withDefault(50), Options.withDescription("At most this many (1-50)"))
  },
  ({ limit, status, tenant }) =>
    admin(
      [TenantsLive, WebhookDeliveriesLive],
      Effect.gen(function* () {
        const page = yield* (yield* WebhookDeliveries)
          .listAll({ status: Option.getOrUndefined(status), limit })
          .pipe(asSupport(tenant))
        if (page.items.length === 0) return yield* Console.log("No deliveries.")
        yield* Console.log(
          table(
            ["ID", "WEBHOOK", "EVENT", "STATUS", "ATTEMPTS", "LAST ATTEMPT", "ANSWER", "NEXT ATTEMPT"],
            page.items.map((d) => [
              d.id,
              d.webhookId,
              d.eventType,
              d.status,
              String(d.attempts),
              instant(d.lastAttemptAt),
              d.responseStatus === null ? "" : String(d.responseStatus),
              instant(d.nextAttemptAt)
            ])
          )
        )
        yield* Console.log(`${page.items.length} of ${page.totalCount}, newest first.`)
      })
    )
).pipe(Command.withDescription("List a tenant's webhook deliveries, newest first"))

const retry = Command.make(
  "retry",
  { tenant: tenantOption, delivery: Options.text("delivery").pipe(Options.withDescription("The delivery's id")) },
  ({ delivery, tenant }) =>
    admin(
      [TenantsLive, WebhookDeliveriesLive],
      Effect.gen(function* () {
        yield* (yield* WebhookDeliveries).retry(delivery).pipe(asSupport(tenant))
        yield* Console.log(`Delivery ${delivery} is Pending again; a running server's dispatcher sends it at once.`)
      })
    )
).pipe(Command.withDescription("Send a Failed delivery once more"))

export const WebhooksCommand = Command.make("webhooks").pipe(
  Command.withDescription("Webhooks and their deliveries"),
  Command.withSubcommands([list, test, deliveries, retry])
)
