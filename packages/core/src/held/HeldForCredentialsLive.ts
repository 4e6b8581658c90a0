import { Effect, Layer, Option } from "effect"
import { Contact } from "../contacts/Contact.js"
import { contactEvent } from "../contacts/ContactDraft.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { HeldForCredentials } from "../credentials/HeldForCredentials.js"
import { EventOutbox } from "../events/EventOutbox.js"
import type { TenantId } from "../Ids.js"
import { MonthlyReturnRepo } from "../returns/MonthlyReturnRepo.js"
import { verificationRequested } from "../taxauthority/VerificationRecord.js"
import { VerificationQueue } from "../verification/VerificationQueue.js"

/**
 * A tenant's held returns and verifications, due again once its credentials are replaced: each
 * held return is submitted again, and each contact whose verification was held shows it requested
 * again (with contact.updated), unless the contact was deleted or asked again meanwhile.
 */
export const HeldForCredentialsLive = Layer.effect(
  HeldForCredentials,
  Effect.gen(function* () {
    const returns = yield* MonthlyReturnRepo
    const queue = yield* VerificationQueue
    const contacts = yield* ContactRepo
    const outbox = yield* EventOutbox

    const releaseVerifications = (tenantId: TenantId, now: Date) =>
      Effect.gen(function* () {
        const released = yield* queue.releaseHeld(tenantId, now)
        for (const request of released) {
          const found = yield* contacts.findByCodeForUpdate(tenantId, request.contactCode)
          if (Option.isNone(found) || found.value.id !== request.contactId) continue
          const requested = new Contact({ ...found.value, verification: verificationRequested, updatedAt: now })
          yield* contacts.update(requested)
          yield* outbox.record(tenantId, [contactEvent("contact.updated", requested)])
        }
      })

    return HeldForCredentials.of({
      release: (tenantId, now) =>
        Effect.gen(function* () {
          yield* returns.releaseHeld(tenantId, now)
          yield* releaseVerifications(tenantId, now)
        })
    })
  })
)
