import { contactDto, contactJson } from "@cisbook/core/contacts/ContactView"
import { Contacts } from "@cisbook/core/contacts/Contacts"
import { Verifications } from "@cisbook/core/verification/Verifications"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

export const ContactsHandlers = HttpApiBuilder.group(CisbookApi, "contacts", (handlers) =>
  Effect.gen(function* () {
    const contacts = yield* Contacts
    const verifications = yield* Verifications
    return (
      handlers
        // A page is encoded directly (contactJson is held equal to the schema's encoding by tests):
        // through the schema, encoding cost more than the query.
        .handle("listContacts", ({ urlParams }) =>
          contacts
            .list(urlParams)
            .pipe(Effect.map((page) => HttpServerResponse.unsafeJson({ ...page, items: page.items.map(contactJson) })))
        )
        .handle("createContact", ({ payload }) => contacts.create(payload).pipe(Effect.map(contactDto)))
        .handle("getContact", ({ path }) => contacts.get(path.code).pipe(Effect.map(contactDto)))
        .handle("updateContact", ({ path, payload }) =>
          contacts.update(path.code, payload).pipe(Effect.map(contactDto))
        )
        .handle("deleteContact", ({ path }) => contacts.remove(path.code))
        .handle("verifyContact", ({ path }) => verifications.request(path.code).pipe(Effect.map(contactDto)))
    )
  })
)
