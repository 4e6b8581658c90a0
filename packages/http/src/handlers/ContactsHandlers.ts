import { contactDto } from "@cisbook/core/contacts/ContactView"
import { CurrentUser } from "@cisbook/core/CurrentUser"
import { Contacts } from "@cisbook/core/usecases/Contacts"
import { CisbookApi } from "@cisbook/sdk/Api"
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"

export const ContactsHandlers = HttpApiBuilder.group(CisbookApi, "contacts", (handlers) =>
  Effect.gen(function* () {
    const contacts = yield* Contacts
    return handlers
      .handle("listContacts", ({ path, urlParams }) =>
        CurrentUser.pipe(
          Effect.flatMap((user) => contacts.list(user, path.tenant, urlParams)),
          Effect.map((page) => ({ ...page, items: page.items.map(contactDto) }))
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
  })
)
