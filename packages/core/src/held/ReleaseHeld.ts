import { Effect, Option } from "effect"
import type { CisScheme } from "../cis/CisScheme.js"
import { Contact } from "../contacts/Contact.js"
import { contactEvent } from "../contacts/ContactDraft.js"
import { ContactRepo } from "../contacts/ContactRepo.js"
import { EventOutbox } from "../events/EventOutbox.js"
import type { TenantId } from "../Ids.js"
import { MonthlyReturnRepo } from "../returns/MonthlyReturnRepo.js"
import { verificationRequested } from "../taxauthority/VerificationRecord.js"
import { VerificationQueue } from "../verification/VerificationQueue.js"

/**
 * Sends again everything of a tenant held for its HMRC credentials, inside the caller's
 * transaction: each such return Submitted again, each such verification due again with its
 * contact showing it requested again (with contact.updated, unless the contact was deleted or
 * asked again meanwhile); under `scheme` when the CIS scheme registration was corrected. What is
 * held because HMRC's answer is unknown waits for a person.
 */
export const releaseHeld = Effect.gen(function* () {
  const returns = yield* MonthlyReturnRepo
  const queue = yield* VerificationQueue
  const contacts = yield* ContactRepo
  const outbox = yield* EventOutbox

  const releaseVerifications = (tenantId: TenantId, at: Date, scheme: CisScheme | undefined) =>
    Effect.gen(function* () {
      const released = yield* queue.releaseHeld(tenantId, at, scheme)
      for (const request of released) {
        const found = yield* contacts.findByCodeForUpdate(tenantId, request.contactCode)
        if (Option.isNone(found) || found.value.id !== request.contactId) continue
        const requested = new Contact({ ...found.value, verification: verificationRequested, updatedAt: at })
        yield* contacts.update(requested)
        yield* outbox.record(tenantId, [contactEvent("contact.updated", requested)])
      }
    })

  return (tenantId: TenantId, at: Date, scheme?: CisScheme): Effect.Effect<void> =>
    Effect.gen(function* () {
      yield* returns.releaseHeld(tenantId, at, scheme)
      yield* releaseVerifications(tenantId, at, scheme)
    })
})
