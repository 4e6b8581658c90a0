import { MailId } from "@cisbook/core/Ids"
import type { EmailTemplateType } from "@cisbook/core/mail/EmailTemplateType"
import { TenantMail, type TenantMailRequest } from "@cisbook/core/mail/TenantMail"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { Effect, Layer, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

/** Every mail asked for, oldest first; a journal cell, so a failed transaction drops its mail. */
export class QueuedMailRequests extends Effect.Service<QueuedMailRequests>()("testkit/QueuedMailRequests", {
  effect: Effect.flatMap(MemoryJournal, (journal) =>
    journal.ref<ReadonlyArray<TenantMailRequest<EmailTemplateType>>>([])
  )
}) {}

/**
 * TenantMail that records what a use case asked to send, for tests of the rules that send mail
 * (which template, to whom, with which values). The subject is the template type.
 */
export const TenantMailRecording = Layer.effect(
  TenantMail,
  Effect.gen(function* () {
    const requests = yield* QueuedMailRequests
    const ids = yield* IdGenerator
    return TenantMail.of({
      queue: (request) =>
        Effect.gen(function* () {
          const id = MailId.make(yield* ids.uuid)
          yield* Ref.update(requests, (all) => [...all, request as TenantMailRequest<EmailTemplateType>])
          return { id, to: request.to, subject: request.type, status: "Queued" } as const
        })
    })
  })
).pipe(Layer.provideMerge(QueuedMailRequests.Default))
