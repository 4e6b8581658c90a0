import { contactDto, contactJson } from "@cisbook/core/contacts/ContactView"
import { CurrentUser } from "@cisbook/core/users/CurrentUser"
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
        .handle("listContacts", ({ path, urlParams }) =>
          CurrentUser.pipe(
            Effect.flatMap((user) => contacts.list(user, path.tenant, urlParams)),
            Effect.map((page) => HttpServerResponse.unsafeJson({ ...page, items: page.items.map(contactJson) }))
          )
        )
        .handle("createContact", ({ path, payload }) =>
          CurrentUser.pipe(
            Effect.flatMap((user) => contacts.create(user, path.tenant, payload)),
            Effect.map(contactDto)
          )
        )
        .handle("getContact", ({ path }) =>
          CurrentUser.pipe(
            Effect.flatMap((user) => contacts.get(user, path.tenant, path.code)),
            Effect.map(contactDto)
          )
        )
        .handle("updateContact", ({ path, payload }) =>
          CurrentUser.pipe(
            Effect.flatMap((user) => contacts.update(user, path.tenant, path.code, payload)),
            Effect.map(contactDto)
          )
        )
        .handle("deleteContact", ({ path }) =>
          CurrentUser.pipe(Effect.flatMap((user) => contacts.remove(user, path.tenant, path.code)))
        )
        .handle("verifyContact", ({ path }) =>
          CurrentUser.pipe(
            Effect.flatMap((user) => verifications.request(user, path.tenant, path.code)),
            Effect.map(contactDto)
          )
        )
    )
  })
)
