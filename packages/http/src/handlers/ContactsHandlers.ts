import { Contacts } from "@cisbook/core/contacts/Contacts"
import { Verifications } from "@cisbook/core/verification/Verifications"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { contactDto, contactPageResponse } from "../dto/ContactDto.js"

export const ContactsHandlers = HttpApiBuilder.group(CisbookApi, "contacts", (handlers) =>
  Effect.gen(function* () {
    const contacts = yield* Contacts
    const verifications = yield* Verifications
    return handlers
      .handle("listContacts", ({ urlParams }) => contacts.list(urlParams).pipe(Effect.map(contactPageResponse)))
      .handle("createContact", ({ payload }) => contacts.create(payload).pipe(Effect.map(contactDto)))
      .handle("getContact", ({ path }) => contacts.get(path.code).pipe(Effect.map(contactDto)))
      .handle("updateContact", ({ path, payload }) => contacts.update(path.code, payload).pipe(Effect.map(contactDto)))
      .handle("deleteContact", ({ path }) => contacts.remove(path.code))
      .handle("verifyContact", ({ path }) => verifications.request(path.code).pipe(Effect.map(contactDto)))
  })
)
