import { Effect, Layer, Option } from "effect"
import { MailId } from "../Ids.js"
import { Clock } from "../system/Clock.js"
import { EmailSettingsRepo } from "./EmailSettingsRepo.js"
import { IdGenerator } from "../system/IdGenerator.js"
import { MailOutbox } from "./MailOutbox.js"
import { defaultTemplates } from "./DefaultTemplates.js"
import { oneLine, renderMail } from "./RenderMail.js"
import { TenantMail } from "./TenantMail.js"

/** TenantMail over the tenant's templates and the mail outbox: renders now, sends later. */
export const TenantMailLive = Layer.effect(
  TenantMail,
  Effect.gen(function* () {
    const settings = yield* EmailSettingsRepo
    const outbox = yield* MailOutbox
    const ids = yield* IdGenerator
    const clock = yield* Clock
    return TenantMail.of({
      queue: (request) =>
        Effect.gen(function* () {
          const context = yield* settings.mailContext(request.tenantId, request.type)
          const template = Option.getOrElse(context.template, () => defaultTemplates[request.type])
          const { body, subject } = renderMail(template, request.values, context.signature)
          const id = MailId.make(yield* ids.uuid)
          yield* outbox.add({
            tenantId: request.tenantId,
            id,
            type: request.type,
            to: request.to,
            fromName: oneLine(context.tenantName).trim(),
            replyTo: context.tenantEmail ?? request.actingUserEmail,
            subject,
            body,
            attachments: request.attachments ?? [],
            createdAt: yield* clock.now
          })
          return { id, to: request.to, subject, status: "Queued" } as const
        }).pipe(Effect.withSpan("TenantMail.queue"))
    })
  })
)
